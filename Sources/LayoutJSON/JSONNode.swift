/// One value in a tape: its kind, its raw byte range and where its subtree ends.
public struct JSONNode: Sendable, Equatable {
    /// Byte offset of the value's first byte.
    public var start: UInt32
    /// Byte offset one past the value's last byte.
    public var end: UInt32
    /// Index of the first node after this value's subtree.
    public var next: UInt32
    /// Members of an object or elements of an array; zero for scalars.
    public var count: UInt32
    /// The value's kind.
    public var kind: JSONKind
    /// Kind-specific flags: see `JSONNode.Flags`.
    public var flags: UInt8

    /// Bits of `flags`.
    public enum Flags {
        /// A string that contains at least one backslash escape.
        public static let escaped: UInt8 = 1
        /// A number with a fraction or an exponent.
        public static let fractional: UInt8 = 2
        /// An object with an `@type` key.
        public static let typeKey: UInt8 = 4
        /// An object with an `@class` key.
        public static let classKey: UInt8 = 8
        /// An object with an escaped key (which might spell `@type` or `@class`).
        public static let escapedKey: UInt8 = 16
        /// A container that has, or holds at any depth, an object with an `@type` (or escaped) key.
        public static let itemsBelow: UInt8 = 32
        /// An object with an `@error` key.
        public static let errorKey: UInt8 = 64
        /// An object with more than one (unescaped) `@type` key.
        public static let repeatedTypeKey: UInt8 = 128
    }

    /// The raw byte range of the value in its document.
    public var range: Range<Int> { Int(start)..<Int(end) }
}
