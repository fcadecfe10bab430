/// A fixed list of object keys laid out in one buffer, for finding several members in one pass over an object.
public struct JSONKeyTable: Sendable {
    /// The keys' UTF-8 bytes, back to back.
    let bytes: [UInt8]
    /// Where each key starts in `bytes`, and its length.
    let spans: [(start: Int, length: Int)]
    /// For each key length below 63, which keys have it (bit k for key k); index 63 holds every longer key.
    let keysByLength: [UInt64]

    /// A table of `keys` (at most 64), in order: `JSONDocument.values(_:_:into:)` reports them by position.
    public init(_ keys: [JSONKey]) {
        precondition(keys.count <= 64, "a JSONKeyTable holds at most 64 keys")
        var byLength = [UInt64](repeating: 0, count: 64)
        var bytes: [UInt8] = []
        var spans: [(start: Int, length: Int)] = []
        for key in keys {
            key.withUTF8 { u in
                byLength[Self.lengthSlot(u.count)] |= 1 << UInt64(spans.count)
                spans.append((bytes.count, u.count))
                bytes.append(contentsOf: u)
            }
        }
        // One spare byte keeps the buffer's base address non-nil even when every key is empty.
        bytes.append(0)
        self.bytes = bytes
        self.spans = spans
        self.keysByLength = byLength
    }

    /// The `keysByLength` slot for a key of `length` bytes.
    @inline(__always)
    static func lengthSlot(_ length: Int) -> Int { length < 63 ? length : 63 }

    /// How many keys the table holds.
    public var count: Int { spans.count }
}
