import LayoutJSON

/// Validates JSON against the JSON Schema subset the project's schemas use; unknown keywords are refused, never ignored.
public struct SchemaValidator: Sendable {
    let schema: JSONDocument
    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$comment", "$defs"]
    static let keywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const",
        "minimum", "maximum", "minLength", "minItems", "pattern", "$ref", "oneOf", "anyOf",
    ]

    /// A validator for the schema in `bytes`.
    /// The layout record's schema (`schemas/layout-record.schema.json`).
    public static let layoutRecord = try! SchemaValidator(schema: Fixtures.bytes("schemas/layout-record.schema.json"))

    public init(schema bytes: [UInt8]) throws {
        schema = try JSONReader().read(bytes)
    }

    /// Every violation of the schema by `bytes` (empty when valid).
    public func validate(_ bytes: [UInt8]) -> [String] {
        let doc: JSONDocument
        do { doc = try JSONReader().read(bytes) } catch { return ["not JSON: \(error)"] }
        var errors: [String] = []
        check(doc, doc.root, schema.root, "$", &errors)
        return errors
    }

    private func check(_ doc: JSONDocument, _ value: Int, _ s: Int, _ path: String, _ errors: inout [String]) {
        guard schema.kind(s) == .object else {
            if schema.kind(s) == .false { errors.append("\(path): no value allowed") }
            return
        }
        for (k, _) in schema.members(s) {
            let key = schema.string(k)!
            if !Self.annotations.contains(key) && !Self.keywords.contains(key) {
                errors.append("schema uses unsupported keyword '\(key)'")
            }
        }
        func kw(_ name: String) -> Int? { schema.value(s, JSONKey(name)) }
        if let ref = kw("$ref").flatMap(schema.string) {
            var target = schema.root
            for part in ref.dropFirst(2).split(separator: "/") {
                guard let next = schema.value(target, JSONKey(String(part))) else {
                    errors.append("schema $ref \(ref) not found")
                    return
                }
                target = next
            }
            check(doc, value, target, path, &errors)
        }
        if let t = kw("type") {
            let allowed = schema.kind(t) == .array ? schema.elements(t).compactMap(schema.string) : [schema.string(t)!]
            if !allowed.contains(where: { typeMatches(doc, value, $0) }) {
                errors.append("\(path): expected \(allowed.joined(separator: " or ")), got \(doc.kind(value))")
                return
            }
        }
        if let c = kw("const"), !equal(doc, value, schema, c) {
            errors.append("\(path): not the constant \(String(decoding: schema.raw(c), as: UTF8.self))")
        }
        if let e = kw("enum"), !schema.elements(e).contains(where: { equal(doc, value, schema, $0) }) {
            errors.append(
                "\(path): \(String(decoding: doc.raw(value), as: UTF8.self)) not in \(String(decoding: schema.raw(e), as: UTF8.self))"
            )
        }
        if let m = kw("minimum").flatMap(schema.double), let v = doc.double(value), v < m {
            errors.append("\(path): \(v) < minimum \(m)")
        }
        if let m = kw("maximum").flatMap(schema.double), let v = doc.double(value), v > m {
            errors.append("\(path): \(v) > maximum \(m)")
        }
        if let m = kw("minLength").flatMap(schema.int), let v = doc.string(value), v.unicodeScalars.count < m {
            errors.append("\(path): shorter than \(m)")
        }
        if let m = kw("minItems").flatMap(schema.int), doc.kind(value) == .array, Int(doc.nodes[value].count) < m {
            errors.append("\(path): fewer than \(m) items")
        }
        if let p = kw("pattern").flatMap(schema.string), let v = doc.string(value) {
            if let regex = try? Regex(p), (try? regex.firstMatch(in: v)) == nil {
                errors.append("\(path): '\(v)' does not match \(p)")
            }
        }
        for (name, combine) in [("oneOf", 1), ("anyOf", 0)] {
            guard let list = kw(name) else { continue }
            var passing = 0
            for option in schema.elements(list) {
                var sub: [String] = []
                check(doc, value, option, path, &sub)
                if sub.isEmpty { passing += 1 }
            }
            if combine == 1 && passing != 1 {
                errors.append("\(path): matches \(passing) of oneOf, expected exactly 1")
            }
            if combine == 0 && passing == 0 { errors.append("\(path): matches none of anyOf") }
        }
        if doc.kind(value) == .object {
            let props = kw("properties")
            if let req = kw("required") {
                for r in schema.elements(req) {
                    let name = schema.string(r)!
                    if doc.value(value, JSONKey(name)) == nil { errors.append("\(path): missing required '\(name)'") }
                }
            }
            for (k, v) in doc.members(value) {
                let name = doc.string(k)!
                let childPath = path + "." + name
                if let props, let sub = schema.value(props, JSONKey(name)) {
                    check(doc, v, sub, childPath, &errors)
                } else if let extra = kw("additionalProperties") {
                    if schema.kind(extra) == .false {
                        errors.append("\(path): unexpected property '\(name)'")
                    } else {
                        check(doc, v, extra, childPath, &errors)
                    }
                }
            }
        }
        if doc.kind(value) == .array, let items = kw("items") {
            for (n, e) in doc.elements(value).enumerated() { check(doc, e, items, "\(path)[\(n)]", &errors) }
        }
    }

    private func typeMatches(_ doc: JSONDocument, _ v: Int, _ type: String) -> Bool {
        switch (type, doc.kind(v)) {
        case ("object", .object), ("array", .array), ("string", .string), ("null", .null), ("number", .number),
            ("boolean", .true), ("boolean", .false):
            return true
        case ("integer", .number): return doc.nodes[v].flags & JSONNode.Flags.fractional == 0
        default: return false
        }
    }

    private func equal(_ a: JSONDocument, _ x: Int, _ b: JSONDocument, _ y: Int) -> Bool {
        guard a.kind(x) == b.kind(y) else { return false }
        switch a.kind(x) {
        case .string: return a.decodedStringBytes(x) == b.decodedStringBytes(y)
        case .number: return a.double(x) == b.double(y)
        default: return a.raw(x).elementsEqual(b.raw(y))
        }
    }
}
