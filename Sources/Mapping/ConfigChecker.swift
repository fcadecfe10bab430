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

    /// Every finding about `config`; error findings make `layout-worker check` fail.
    public func check(_ config: MappingConfig) -> [Diagnostic] {
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
        var findings: [Diagnostic] = []
        if entries.isEmpty && config.defaultRenderer == nil && config.adaptors.isEmpty {
            findings.append(
                Diagnostic(
                    .warning, .emptyConfig, path: config.origin,
                    "the config maps nothing: no renderers, supplementary views, placeholders, adaptors or defaultRenderer; every row will be unmapped"
                ))
        }
        func at(_ e: Entry) -> String { e.location.map { "\(config.origin):\($0)" } ?? config.origin }
        func location(_ e: Entry) -> String { e.location.map { " (line \($0.line))" } ?? "" }

        for e in entries {
            if let c = e.condition, c.expression.isUnsatisfiable {
                findings.append(
                    Diagnostic(
                        .error, .unreachableMapping, path: at(e),
                        "\(e.label) can never be chosen: its condition '\(c.source)' is never true"))
            }
        }
        // Group by (scope, type).
        var byScopeType: [String: [Int]] = [:]
        var order: [String] = []
        for (n, e) in entries.enumerated() {
            for t in Set(e.types) {
                let key = e.scope + "\u{0}" + t
                if byScopeType[key] == nil { order.append(key) }
                byScopeType[key, default: []].append(n)
            }
        }
        for key in order {
            let type = String(key.split(separator: "\u{0}", omittingEmptySubsequences: false)[1])
            let group = byScopeType[key]!.map { entries[$0] }
            let unconditional = group.filter { $0.condition == nil }
            if unconditional.count > 1 {
                for e in unconditional.dropFirst() {
                    findings.append(
                        Diagnostic(
                            .error, .duplicateMapping, path: at(e),
                            "\(e.label) and \(unconditional[0].label)\(location(unconditional[0])) both map \(type) without a condition; every \(type) would be ambiguous"
                        ))
                }
            }
            if let always = unconditional.first {
                for e in group where e.condition != nil {
                    findings.append(
                        Diagnostic(
                            .error, .unreachableMapping, path: at(e),
                            "\(e.label) can never be chosen for \(type): every \(type) it matches also matches \(always.label)\(location(always)), which has no condition, so the row is ambiguous"
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
                            .error, .indistinguishableConditions, path: at(e),
                            "\(e.label) and \(earlier.label)\(location(earlier)) have conditions that cannot be told apart for \(type): '\(c.source)' vs '\(earlier.condition!.source)'"
                        ))
                } else {
                    seen[c.canonical] = e
                    if !c.expression.isUnsatisfiable { distinct.append((e, c)) }
                }
            }
            guard unconditional.isEmpty else { continue }
            for j in distinct.indices {
                for i in 0..<j {
                    let (first, a) = distinct[i], (second, b) = distinct[j]
                    switch overlap.check(a, b) {
                    case .disjoint: break
                    case .overlap(let witness):
                        findings.append(
                            Diagnostic(
                                .error, .overlappingConditions, path: at(second),
                                "\(second.label) and \(first.label)\(location(first)) both match \(type) when the model is \(witness): '\(b.source)' and '\(a.source)'; the mapping would be ambiguous there"
                            ))
                    case .undecided(let why):
                        findings.append(
                            Diagnostic(
                                .warning, .undecidedOverlap, path: at(second),
                                "could not prove that \(second.label) and \(first.label)\(location(first)) never both match \(type) ('\(b.source)' and '\(a.source)'): \(why)"
                            ))
                    }
                }
            }
        }
        if config.defaultRenderer == nil {
            findings.append(
                Diagnostic(
                    .info, .noDefaultRenderer, path: config.origin,
                    "no defaultRenderer: rows no mapping matches are reported as unmapped"))
        }
        return findings
    }
}
