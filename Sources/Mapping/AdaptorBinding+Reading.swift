import Adaptors
import ContentTree
import LayoutJSON
import Yams

/// Reading an adaptor binding (`adaptors:` in a mapping config): the adaptor, and the Generic adaptor's rows, ids,
/// grouping, attributes and carry rules.
extension AdaptorBinding {
    /// `rows`: one, none, auto or field:NAME.
    private static func readRows(_ value: Node, _ r: inout MappingConfigReader) -> GenericAdaptor.Rows? {
        guard let text = r.string(value, what: "rows") else { return nil }
        switch text {
        case "one": return .one
        case "none": return GenericAdaptor.Rows.none
        case "auto": return .auto
        default:
            let name = text.drop { $0 != ":" }.dropFirst()
            let trimmed = String(name.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            if text.hasPrefix("field:"), !name.isEmpty, trimmed == name { return .field(String(name)) }
            var meant = ""
            if text.lowercased().drop(while: \.isWhitespace).hasPrefix("field"), !trimmed.isEmpty {
                meant = "; did you mean 'field:\(trimmed)'?"
            } else if let word = Suggestion.closest(to: text, among: ["one", "none", "auto"]) {
                meant = "; did you mean '\(word)'?"
            }
            r.fail(value, .wrongValue, "rows must be one, none, auto or field:NAME, not '\(text)'\(meant)")
            return nil
        }
    }

    /// `idFields`: a list of field paths (the ones that parse).
    private static func readIDFields(_ value: Node, _ r: inout MappingConfigReader) -> [FieldPath]? {
        guard let list = r.strings(value, what: "idFields") else { return nil }
        var paths: [FieldPath] = []
        for text in list {
            do { paths.append(try FieldPath(parsing: text)) } catch {
                r.fail(value, .fieldPathSyntax, "idFields '\(text)': \(error)")
            }
        }
        return paths
    }

    /// `attributes`: name → field path.
    private static func readAttributes(_ value: Node, _ r: inout MappingConfigReader) -> [(
        name: String, path: FieldPath
    )] {
        var attributes: [(name: String, path: FieldPath)] = []
        for (name, v) in r.namedValues(value, what: "attributes", of: "field path") {
            guard let path = r.fieldPath(v, what: "attribute \(name)") else { continue }
            attributes.append((name, path))
        }
        return attributes
    }

    /// `carry`: name → merge rule.
    private static func readCarry(_ value: Node, _ r: inout MappingConfigReader) -> [(
        name: String, merge: AttributeMerge
    )] {
        let rules = AttributeMerge.allCases.map(\.rawValue).joined(separator: ", ")
        var carry: [(name: String, merge: AttributeMerge)] = []
        for (name, v) in r.namedValues(value, what: "carry", of: "merge rule") {
            guard let text = r.string(v, what: "the merge rule of \(name)") else { continue }
            guard let merge = AttributeMerge(rawValue: text) else {
                r.fail(v, .wrongValue, "carry rule for \(name) must be one of \(rules), not '\(text)'")
                continue
            }
            carry.append((name, merge))
        }
        return carry
    }

    /// The binding `node` gives content type `type`: an adaptor's name, or the Generic adaptor's settings.
    static func read(_ node: Node, for type: String, _ r: inout MappingConfigReader) -> AdaptorBinding? {
        let names = AdaptorRegistry.builtInNames.joined(separator: ", ")
        if case .scalar = node {
            guard let name = r.string(node, what: "the adaptor for \(type)") else { return nil }
            guard let adaptor = AdaptorRegistry.builtIn(named: name) else {
                let meant = Suggestion.clause(for: name, among: AdaptorRegistry.builtInNames)
                r.fail(node, .unknownAdaptor, "unknown adaptor '\(name)' for \(type)\(meant) (built-in: \(names))")
                return nil
            }
            return AdaptorBinding(adaptor: adaptor, location: r.location(node))
        }
        guard
            let entries = r.fields(
                node,
                allowed: [
                    "adaptor", "rows", "idFields", "groupBy", "groupOrder", "groupIdentity", "groupType", "attributes",
                    "carry",
                ],
                what: "the adaptor binding for \(type)")
        else { return nil }
        var name = AdaptorName.generic.rawValue
        var rows: GenericAdaptor.Rows?
        var idPaths: [FieldPath]?
        var groupBy: FieldPath?
        var groupIdentity: [FieldPath]?
        var order = RowGrouper.Order.firstAppearance
        var valueType = RowGrouper.ValueType.auto
        var attributes: [(name: String, path: FieldPath)] = []
        var carry: [(name: String, merge: AttributeMerge)] = []
        var rowsNode: Node?
        for (key, _, value) in entries {
            switch key {
            case "adaptor": name = r.string(value, what: "adaptor") ?? name
            case "rows":
                rowsNode = value
                rows = readRows(value, &r) ?? rows
            case "idFields": idPaths = readIDFields(value, &r) ?? idPaths
            case "groupBy": groupBy = r.fieldPath(value, what: "groupBy")
            case "groupIdentity": groupIdentity = r.fieldPath(value, what: "groupIdentity").map { [$0] }
            case "groupType":
                let types = RowGrouper.ValueType.allCases.map(\.rawValue).joined(separator: ", ")
                valueType = r.readChoice(value, "groupType", RowGrouper.ValueType.init, "one of \(types)") ?? valueType
            case "attributes": attributes += readAttributes(value, &r)
            case "carry": carry += readCarry(value, &r)
            case "groupOrder":
                order = r.readChoice(value, "groupOrder", RowGrouper.Order.init, "firstAppearance or value") ?? order
            default: break
            }
        }
        let adaptor: any ContentItemAdaptor
        if name == AdaptorName.generic.rawValue {
            adaptor = GenericAdaptor(rows: rows ?? .auto, idPaths: idPaths)
        } else {
            guard let builtIn = AdaptorRegistry.builtIn(named: name) else {
                let meant = Suggestion.clause(for: name, among: AdaptorRegistry.builtInNames)
                r.fail(node, .unknownAdaptor, "unknown adaptor '\(name)' for \(type)\(meant) (built-in: \(names))")
                return nil
            }
            if let rowsNode { r.fail(rowsNode, .wrongField, "rows applies to the Generic adaptor only") }
            if idPaths != nil { r.fail(node, .wrongField, "idFields applies to the Generic adaptor only") }
            adaptor = builtIn
        }
        return AdaptorBinding(
            adaptor: adaptor,
            grouper: groupBy.map {
                RowGrouper(path: $0, order: order, identityPaths: groupIdentity, valueType: valueType)
            },
            attributes: attributes, carry: carry, location: r.location(node))
    }
}
