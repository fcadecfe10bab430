/// An object key prepared once as UTF-8 bytes, for lookups without allocation.
public struct JSONKey: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The key's UTF-8 bytes (unescaped).
    public let utf8: [UInt8]

    public init(_ name: String) { utf8 = Array(name.utf8) }
    public init(stringLiteral value: String) { self.init(value) }

    /// The key as a Swift string.
    public var description: String { String(decoding: utf8, as: UTF8.self) }
}
