import Adaptors
import ContentTree
import LayoutJSON

/// The findings that catch a misspelling a config would otherwise take silently: a mapping's type that is close to
/// a stock, adaptor or response type but none of them, and, against responses (`ResponseSurvey`), mappings that
/// matched nothing, a generic adaptor's rows field that no item has, and condition fields and attribute names that
/// no row's model has. Each with the name probably meant.
extension ConfigChecker {
    /// A type named by a mapping that nothing has, when a known type is within a typo of it.
    func unknownTypes(_ config: MappingConfig, _ survey: ResponseSurvey?) -> [Diagnostic] {
        let known = StockTypes.all.union(config.adaptors.keys).union(survey?.types ?? [])
        var findings: [Diagnostic] = []
        let named: [(label: String, types: [String], location: SourceLocation?, at: [String: SourceLocation])] =
            config.renderers.map { ("renderer \($0.renderer)", $0.types, $0.location, $0.typeLocations) }
            + config.supplementary.map { ("\($0.kind) \($0.renderer)", $0.types, $0.location, $0.typeLocations) }
            + config.placeholders.map {
                ("\($0.kind.rawValue) placeholder \($0.renderer)", $0.types, $0.location, $0.typeLocations)
            }
            + config.events.map { ("\($0.event) event", $0.types, $0.location, $0.typeLocations) }
            + config.adaptors.map { ("the adaptor binding", [$0.key], $0.value.location, [:]) }
        for (label, types, location, at) in named {
            for type in types where type != "*" && !known.contains(type) {
                guard let meant = Suggestion.closest(to: type, among: known) else { continue }
                let seen = survey.map { " or \(Self.these($0))" } ?? ""
                // Within a typo of a known type: a mistake, not a type of a response not seen yet.
                findings.append(
                    Diagnostic(
                        .error, .unknownType, path: Self.place(config, at[type] ?? location),
                        "\(label) names type '\(type)', which no stock type, adaptor\(seen) has; did you mean '\(meant)'?"
                    ))
            }
        }
        return findings
    }

    /// Mappings that matched nothing in the responses, rows fields no item has, condition fields no model has.
    func responseFindings(_ config: MappingConfig, _ survey: ResponseSurvey) -> [Diagnostic] {
        guard survey.responses > 0 else { return [] }
        var findings: [Diagnostic] = []
        let these = Self.these(survey)
        let rowTypes = survey.rowTypes.filter { !$0.key.contains(".") }.sorted {
            $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
        }
        .prefix(6).map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        for m in config.renderers where !survey.rendered(m.renderer, forAnyOf: m.types) {
            findings.append(
                Diagnostic(
                    .warning, .neverMatched, path: Self.place(config, m.location),
                    "renderer \(m.renderer) (types \(m.types.joined(separator: ", "))) drew no row in \(these) (their rows' types: \(rowTypes))"
                ))
        }
        for m in config.supplementary where !survey.rendered(m.kind, m.renderer, forAnyOf: m.types) {
            findings.append(
                Diagnostic(
                    .warning, .neverMatched, path: Self.place(config, m.location),
                    "\(m.kind) \(m.renderer) (types \(m.types.joined(separator: ", "))) drew no section's \(m.kind) in \(these)"
                ))
        }
        for (type, binding) in config.adaptors.sorted(by: { $0.key < $1.key }) {
            guard let generic = binding.adaptor as? GenericAdaptor, case .field(let name) = generic.rows,
                let fields = survey.itemFields[type], !fields.contains(name)
            else { continue }
            findings.append(
                Diagnostic(
                    .warning, .rowsFieldMissing, path: Self.place(config, binding.location),
                    "rows field '\(name)' is in none of the \(survey.contentTypes[type] ?? 0) \(type) items of \(these), so their sections have no rows\(Suggestion.clause(for: name, among: fields))"
                ))
        }
        for m in config.renderers { findings += conditionFields(m, config, survey, these) }
        return findings
    }

    /// A renderer mapping's condition reading a field, or an attribute, that no model of its types has.
    private func conditionFields(
        _ m: RendererMapping, _ config: MappingConfig, _ survey: ResponseSurvey, _ these: String
    ) -> [Diagnostic] {
        guard let condition = m.condition else { return [] }
        let types = m.types.filter { survey.rowTypes[$0] != nil }
        guard !types.isEmpty else { return [] }
        let fields = types.reduce(into: Set<String>()) { $0.formUnion(survey.modelFields[$1] ?? []) }
        let attributes = types.reduce(into: Set<String>()) { $0.formUnion(survey.attributeNames[$1] ?? []) }
        var findings: [Diagnostic] = []
        var reported: Set<String> = []
        for path in condition.expression.fieldPaths {
            let steps = path.steps
            guard case .key(let first) = steps.first else { continue }
            let name = first.description
            var message: String?
            // A name one typo from one the rows have is a mistake (an error); one far from all of them may be in
            // other responses (a warning).
            var meant = ""
            if !fields.contains(name) {
                meant = Suggestion.clause(for: name, among: fields)
                message =
                    "reads '\(name)', which no \(types.joined(separator: "/")) row's model has in \(these)\(meant)"
            } else if name == "attributes", steps.count > 1, case .key(let second) = steps[1],
                !attributes.contains(second.description)
            {
                let attribute = second.description
                meant = Suggestion.clause(for: attribute, among: attributes)
                message =
                    "reads attribute '\(attribute)', which no \(types.joined(separator: "/")) row has in \(these)\(meant)"
            }
            guard let message, reported.insert(message).inserted else { continue }
            findings.append(
                Diagnostic(
                    meant.isEmpty ? .warning : .error, .unknownAttribute,
                    path: Self.place(config, m.conditionLocation ?? m.location),
                    "the condition of renderer \(m.renderer) '\(condition.source)' \(message)"))
        }
        return findings
    }

    /// "this response" or "these N responses".
    static func these(_ survey: ResponseSurvey) -> String {
        survey.responses == 1 ? "this response" : "these \(survey.responses) responses"
    }

    /// Where a finding is: the config's origin, with line and column when known.
    static func place(_ origin: String, _ location: SourceLocation?) -> String {
        location.map { "\(origin):\($0)" } ?? origin
    }

    static func place(_ config: MappingConfig, _ location: SourceLocation?) -> String {
        place(config.origin, location)
    }
}

extension ConditionExpression {
    /// Every field path the expression reads, in order.
    var fieldPaths: [FieldPath] {
        switch self {
        case .literal, .variable: []
        case .field(let path), .exists(let path): [path]
        case .compare(_, let a, let b), .test(_, let a, let b): a.fieldPaths + b.fieldPaths
        case .member(let a, _), .not(let a): a.fieldPaths
        case .and(let parts), .or(let parts): parts.flatMap(\.fieldPaths)
        }
    }
}
