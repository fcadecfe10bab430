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
    }

    /// The raw byte range of the value in its document.
    public var range: Range<Int> { Int(start)..<Int(end) }
}
