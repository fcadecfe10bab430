/// An object key prepared once as UTF-8 bytes, for lookups without allocation.
public struct JSONKey: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    private let literal: StaticString?
    private let dynamic: [UInt8]

    /// A key from run-time text.
    public init(_ name: String) {
        literal = nil
        dynamic = Array(name.utf8)
    }

    /// A key from a static string (e.g. a `Wire.Key`): no allocation, no reference counting on lookup.
    public init(_ value: StaticString) { self.init(stringLiteral: value) }

    /// A key from a literal: no allocation, no reference counting on lookup.
    public init(stringLiteral value: StaticString) {
        if value.hasPointerRepresentation {
            literal = value
            dynamic = []
        } else {
            literal = nil
            dynamic = Array(value.description.utf8)
        }
    }

    /// The key's UTF-8 bytes (unescaped).
    public var utf8: [UInt8] { withUTF8 { Array($0) } }

    /// Calls `body` with the key's UTF-8 bytes.
    @inline(__always)
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let literal { return body(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)) }
        return dynamic.withUnsafeBufferPointer(body)
    }

    public static func == (a: JSONKey, b: JSONKey) -> Bool { a.utf8 == b.utf8 }
    public func hash(into hasher: inout Hasher) { hasher.combine(utf8) }

    /// The key as a Swift string.
    public var description: String { withUTF8 { String(decoding: $0, as: UTF8.self) } }
}
