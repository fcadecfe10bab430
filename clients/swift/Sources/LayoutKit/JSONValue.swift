/// Any JSON value, for the parts of a record that are the response's own data (row models, attribute values,
/// event fields). Numbers are kept as decimal text: integers exactly (64 bits), others as `Double` prints them.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    /// A number as decimal text (`"12"`, `"1500.0"`); `double` and `int` read it.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let i = try? c.decode(Int64.self) {
            self = .number(String(i))
        } else if let d = try? c.decode(Double.self) {
            self = .number(d.isFinite && d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d))
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n):
            if let i = Int64(n) { try c.encode(i) } else { try c.encode(Double(n) ?? 0) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// The member `key` of an object (nil for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// A string's text.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A number's value as a `Double`.
    public var double: Double? {
        if case .number(let n) = self { return Double(n) }
        return nil
    }

    /// A number that is an integer fitting in `Int`.
    public var int: Int? {
        if case .number(let n) = self { return Int(n) }
        return nil
    }
}
