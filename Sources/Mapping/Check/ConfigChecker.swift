public import ContentTree

/// Static validation of a loaded config: duplicate, unreachable, indistinguishable and overlapping mappings.
public struct ConfigChecker: Sendable {
    /// Decides, for each pair of conditional mappings competing for a type, whether both can hold.
    public var overlap = ConditionOverlap()

    public init() {}

    private struct Entry {
        let label: String
        let scope: String
        let types: [String]
        let condition: Condition?
        let location: SourceLocation?
    }

    /// Every finding about `config`, and about it against the responses of `survey` when given; error findings
    /// make `layout-worker check` fail.
    public func check(_ config: MappingConfig, against survey: ResponseSurvey? = nil) -> [Diagnostic] {
        let entries = Self.entries(of: config)
        let place = Place(origin: config.origin)
        var findings: [Diagnostic] = []
        if entries.isEmpty && config.defaultRenderer == nil && config.adaptors.isEmpty {
            findings.append(
                Diagnostic(
                    .warning, .emptyConfig, path: config.origin,
                    "the config maps nothing: no renderers, supplementary views, placeholders, adaptors or defaultRenderer; every row will be unmapped"
                ))
        }
        for e in entries {
            if let c = e.condition, c.expression.isUnsatisfiable {
                findings.append(
                    Diagnostic(
                        .error, .unreachableMapping, path: place.at(e),
                        "\(e.label) can never be chosen: its condition '\(c.source)' is never true"))
            }
        }
        for (type, group) in Self.byScopeAndType(entries) { findings += check(group, for: type, place) }
        findings += unknownTypes(config, survey)
        findings += PlaceholderFindings.of(config)
        if let survey { findings += responseFindings(config, survey) }
        if config.defaultRenderer == nil {
            findings.append(
                Diagnostic(
                    .info, .noDefaultRenderer, path: config.origin,
                    "no defaultRenderer: rows no mapping matches are reported as unmapped"))
        }
        return findings
    }

    /// Where an entry is, for findings: the config's origin with the entry's line.
    private struct Place {
        let origin: String
        func at(_ e: Entry) -> String { ConfigChecker.place(origin, e.location) }
        func line(_ e: Entry) -> String { e.location.map { " (line \($0.line))" } ?? "" }
    }

    /// Every mapping of the config that competes with others for a type, in config order.
    private static func entries(of config: MappingConfig) -> [Entry] {
        var entries: [Entry] = []
        for m in config.renderers {
            entries.append(
                Entry(
                    label: "renderer \(m.renderer)", scope: "row", types: m.types, condition: m.condition,
                    location: m.location))
        }
        for m in config.supplementary {
            entries.append(
                Entry(
                    label: "\(m.kind) \(m.renderer)", scope: "supplementary \(m.kind)", types: m.types,
                    condition: m.condition, location: m.location))
        }
        for m in config.placeholders {
            entries.append(
                Entry(
                    label: "\(m.kind.rawValue) placeholder \(m.renderer)", scope: "placeholder \(m.kind.rawValue)",
                    types: m.types.isEmpty ? ["*"] : m.types, condition: m.condition, location: m.location))
        }
        for m in config.events {
            entries.append(
                Entry(
                    label: "\(m.event) event\(m.handler.map { " " + $0 } ?? "")", scope: "event \(m.event)",
                    types: m.types.isEmpty ? ["*"] : m.types, condition: m.condition, location: m.location))
        }
        return entries
    }

    /// The entries competing for each (scope, type), in order of first appearance.
    private static func byScopeAndType(_ entries: [Entry]) -> [(type: String, group: [Entry])] {
        var byKey: [String: [Int]] = [:]
        var order: [(key: String, type: String)] = []
        for (n, e) in entries.enumerated() {
            for t in Set(e.types) {
                let key = e.scope + "\u{0}" + t
                if byKey[key] == nil { order.append((key, t)) }
                byKey[key, default: []].append(n)
            }
        }
        return order.map { ($0.type, byKey[$0.key]!.map { entries[$0] }) }
    }

    /// Findings about the mappings competing for one type: more than one without a condition, conditional ones
    /// behind an unconditional one, conditions that cannot be told apart, and pairs that can both hold.
    private func check(_ group: [Entry], for type: String, _ place: Place) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let unconditional = group.filter { $0.condition == nil }
        for e in unconditional.dropFirst() {
            findings.append(
                Diagnostic(
                    .error, .duplicateMapping, path: place.at(e),
                    "\(e.label) and \(unconditional[0].label)\(place.line(unconditional[0])) both map \(type) without a condition; every \(type) would be ambiguous"
                ))
        }
        if let always = unconditional.first {
            for e in group where e.condition != nil {
                findings.append(
                    Diagnostic(
                        .error, .unreachableMapping, path: place.at(e),
                        "\(e.label) can never be chosen for \(type): every \(type) it matches also matches \(always.label)\(place.line(always)), which has no condition, so the row is ambiguous"
                    ))
            }
        }
        var seen: [String: Entry] = [:]
        // Conditional mappings that are distinct and can be chosen: each pair must never hold together.
        var distinct: [(Entry, Condition)] = []
        for e in group {
            guard let c = e.condition else { continue }
            if let earlier = seen[c.canonical] {
                findings.append(
                    Diagnostic(
                        .error, .indistinguishableConditions, path: place.at(e),
                        "\(e.label) and \(earlier.label)\(place.line(earlier)) have conditions that cannot be told apart for \(type): '\(c.source)' vs '\(earlier.condition!.source)'"
                    ))
            } else {
                seen[c.canonical] = e
                if !c.expression.isUnsatisfiable { distinct.append((e, c)) }
            }
        }
        guard unconditional.isEmpty else { return findings }
        for j in distinct.indices {
            for i in 0..<j {
                let (first, a) = distinct[i], (second, b) = distinct[j]
                switch overlap.check(a, b) {
                case .disjoint: break
                case .overlap(let witness):
                    findings.append(
                        Diagnostic(
                            .error, .overlappingConditions, path: place.at(second),
                            "\(second.label) and \(first.label)\(place.line(first)) both match \(type) when the model is \(witness): '\(b.source)' and '\(a.source)'; the mapping would be ambiguous there. To keep \(first.label) there, write \(second.label)'s condition as '(\(b.source)) and not (\(a.source))' (or the other way round)"
                        ))
                case .undecided(let why):
                    findings.append(
                        Diagnostic(
                            .warning, .undecidedOverlap, path: place.at(second),
                            "could not prove that \(second.label) and \(first.label)\(place.line(first)) never both match \(type) ('\(b.source)' and '\(a.source)'): \(why)"
                        ))
                }
            }
        }
        return findings
    }
}
