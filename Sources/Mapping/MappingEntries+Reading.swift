import Adaptors
import ContentTree
import LayoutJSON
import Yams

// Reading the entries of a mapping config's lists (`renderers`, `supplementary`, `placeholders`, `events`).

extension RendererMapping {
    /// The mapping `node` gives, or nil with what is wrong in `r`.
    static func read(_ node: Node, _ r: inout MappingConfigReader) -> RendererMapping? {
        guard let entries = r.fields(node, allowed: ["renderer", "types", "when"], what: "a renderer mapping") else {
            return nil
        }
        var renderer: String?, types: [String]?, condition: Condition?
        var typeLocations: [String: SourceLocation] = [:]
        var conditionLocation: SourceLocation?
        var ok = true
        for (key, _, value) in entries {
            switch key {
            case "renderer": renderer = r.string(value, what: "renderer"); ok = ok && renderer != nil
            case "types":
                if let t = r.types(value) { (types, typeLocations) = t } else { ok = false }
            case "when":
                condition = r.condition(value)
                conditionLocation = r.location(value)
                ok = ok && condition != nil
            default: break
            }
        }
        guard ok else { return nil }
        guard let renderer, let types else {
            r.fail(node, .missingField, "a renderer mapping needs renderer and types")
            return nil
        }
        var mapping = RendererMapping(
            renderer: renderer, types: types, condition: condition, location: r.location(node))
        mapping.typeLocations = typeLocations
        mapping.conditionLocation = conditionLocation
        return mapping
    }
}

extension SupplementaryMapping {
    /// The mapping `node` gives, or nil with what is wrong in `r`.
    static func read(_ node: Node, _ r: inout MappingConfigReader) -> SupplementaryMapping? {
        guard
            let entries = r.fields(
                node, allowed: ["kind", "types", "field", "renderer", "when"], what: "a supplementary mapping")
        else { return nil }
        var kind: String?, types: [String]?, field: FieldPath?, renderer: String?, condition: Condition?
        var typeLocations: [String: SourceLocation] = [:]
        var ok = true
        for (key, _, value) in entries {
            switch key {
            case "kind": kind = r.string(value, what: "kind"); ok = ok && kind != nil
            case "types":
                if let t = r.types(value) { (types, typeLocations) = t } else { ok = false }
            case "field": field = r.fieldPath(value, what: "field"); ok = ok && field != nil
            case "renderer": renderer = r.string(value, what: "renderer"); ok = ok && renderer != nil
            case "when": condition = r.condition(value); ok = ok && condition != nil
            default: break
            }
        }
        guard ok else { return nil }
        guard let kind, let types, let field, let renderer else {
            r.fail(node, .missingField, "a supplementary mapping needs kind, types, field and renderer")
            return nil
        }
        var mapping = SupplementaryMapping(
            kind: kind, types: types, field: field, renderer: renderer, condition: condition, location: r.location(node)
        )
        mapping.typeLocations = typeLocations
        return mapping
    }
}

extension PlaceholderMapping {
    /// The mapping `node` gives, or nil with what is wrong in `r`.
    static func read(_ node: Node, _ r: inout MappingConfigReader) -> PlaceholderMapping? {
        guard
            let entries = r.fields(node, allowed: ["kind", "types", "renderer", "when"], what: "a placeholder mapping")
        else { return nil }
        var kind: PlaceholderKind?, types: [String] = [], renderer: String?, condition: Condition?
        var typeLocations: [String: SourceLocation] = [:]
        var ok = true
        for (key, _, value) in entries {
            switch key {
            case "kind":
                if let text = r.string(value, what: "kind") {
                    kind = PlaceholderKind(rawValue: text)
                    if kind == nil {
                        let meant = Suggestion.clause(for: text, among: ["loading", "noResults", "error"])
                        r.fail(
                            value, .wrongValue,
                            "placeholder kind must be loading, noResults or error, not '\(text)'\(meant)")
                    }
                }
                ok = ok && kind != nil
            case "types":
                if let t = r.types(value) { (types, typeLocations) = t } else { ok = false }
            case "renderer": renderer = r.string(value, what: "renderer"); ok = ok && renderer != nil
            case "when": condition = r.condition(value); ok = ok && condition != nil
            default: break
            }
        }
        guard ok else { return nil }
        guard let kind, let renderer else {
            r.fail(node, .missingField, "a placeholder mapping needs kind and renderer")
            return nil
        }
        var mapping = PlaceholderMapping(
            kind: kind, types: types, renderer: renderer, condition: condition, location: r.location(node))
        mapping.typeLocations = typeLocations
        return mapping
    }
}

extension EventMapping {
    /// The mapping `node` gives, or nil with what is wrong in `r`.
    static func read(_ node: Node, _ r: inout MappingConfigReader) -> EventMapping? {
        guard
            let entries = r.fields(
                node, allowed: ["event", "types", "when", "handler", "action", "fields"], what: "an event mapping")
        else { return nil }
        var event: String?, types: [String] = [], condition: Condition?, handler: String?
        var typeLocations: [String: SourceLocation] = [:]
        var passesAction = false
        var fields: [EventMapping.Field] = []
        var ok = true
        for (key, _, value) in entries {
            switch key {
            case "event": event = r.string(value, what: "event"); ok = ok && event != nil
            case "types":
                if let t = r.types(value) { (types, typeLocations) = t } else { ok = false }
            case "when": condition = r.condition(value); ok = ok && condition != nil
            case "handler": handler = r.string(value, what: "handler"); ok = ok && handler != nil
            case "action":
                if let b = r.bool(value, what: "action") { passesAction = b } else { ok = false }
            case "fields":
                if let f = eventFields(value, &r) { fields = f } else { ok = false }
            default: break
            }
        }
        guard ok else { return nil }
        guard let event else {
            r.fail(node, .missingField, "an event mapping needs event (and types, or none for every row)")
            return nil
        }
        var mapping = EventMapping(
            event: event, types: types, condition: condition, handler: handler, passesAction: passesAction,
            fields: fields, location: r.location(node))
        mapping.typeLocations = typeLocations
        return mapping
    }

    /// An event's `fields`: a mapping from name to field path, or a list of field paths (each named by its text).
    private static func eventFields(_ node: Node, _ r: inout MappingConfigReader) -> [EventMapping.Field]? {
        var pairs: [(name: String, nameNode: Node, value: Node)] = []
        switch node {
        case .mapping(let mapping):
            for (k, v) in mapping {
                guard let name = r.string(k, what: "a field name") else { return nil }
                pairs.append((name, k, v))
            }
        case .sequence(let seq):
            for item in seq {
                guard let name = r.string(item, what: "each of fields") else { return nil }
                pairs.append((name, item, item))
            }
        default:
            r.fail(node, .wrongType, "fields must be a mapping from name to field path, or a list of field paths")
            return nil
        }
        var out: [EventMapping.Field] = []
        for (name, nameNode, value) in pairs {
            guard let path = r.fieldPath(value, what: "field \(name)") else { return nil }
            if out.contains(where: { $0.name == name }) {
                r.fail(nameNode, .wrongValue, "field '\(name)' is given twice in one event")
                return nil
            }
            out.append(EventMapping.Field(name: name, path: path))
        }
        return out
    }
}
