import LayoutJSON

/// The section ids of one record, in document order and unique, as UTF-8 in one buffer: an identity taken before
/// gets `~2`, `~3`, ... in the order its items come. Ids are found by an open-addressing table of their indexes,
/// hashed with `byteHash`, so making and checking every section's id on every compile allocates nothing per id.
struct SectionIDList {
    /// Every id's bytes, one after another (`ranges` says where).
    private var bytes: [UInt8] = []
    private var ranges: [Range<Int>] = []
    /// `byteHash` of each id, parallel to `ranges`.
    private var hashes: [UInt64] = []
    /// Indexes into `ranges` (-1: free).
    private var slots: [Int32]
    private var mask: Int
    /// For identities several items took: how many so far (absent: one). Rare, so searched in order.
    private var repeats: [(index: Int, count: Int)] = []
    /// Where the id being written starts (see `beginID`).
    private var start = 0

    /// Room for `capacity` ids (the most this list takes) of about `bytes` bytes in all.
    init(capacity: Int, bytes: Int) {
        var size = 16
        while size < capacity &* 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size &- 1
        self.bytes.reserveCapacity(bytes)
        ranges.reserveCapacity(capacity)
        hashes.reserveCapacity(capacity)
    }

    /// The bytes of id `k`.
    subscript(k: Int) -> ArraySlice<UInt8> { bytes[ranges[k]] }

    /// Starts the next id: its identity is appended with `write`, then `endID` makes it unique.
    mutating func beginID() { start = bytes.count }

    mutating func write<S: Sequence>(_ part: S) where S.Element == UInt8 { bytes.append(contentsOf: part) }

    mutating func write(_ part: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: part) }

    mutating func write(_ byte: UInt8) { bytes.append(byte) }

    /// Appends id `k`'s bytes (a parent's id as the head of its child's).
    mutating func write(idAt k: Int) {
        let r = ranges[k]
        bytes.reserveCapacity(bytes.count &+ r.count)
        // Byte by byte: appending a slice of the buffer to itself would copy the whole buffer first.
        for i in r { bytes.append(bytes[i]) }
    }

    /// Ends the id written since `beginID`: kept as it is when no earlier id has those bytes; otherwise `~n` is
    /// appended with the first n (from the identity's count + 1) that no id has, and `repeated` is true.
    mutating func endID() -> (index: Int, repeated: Bool) {
        let base = start..<bytes.count
        let h = hash(base)
        guard let first = find(base, h) else {
            insert(base, h)
            return (ranges.count &- 1, false)
        }
        let r = repeats.firstIndex { $0.index == first }
        var n = (r.map { repeats[$0].count } ?? 1) &+ 1
        while true {
            bytes.removeSubrange(base.upperBound...)
            bytes.append(UInt8(ascii: "~"))
            bytes.append(contentsOf: String(n).utf8)
            let suffixed = base.lowerBound..<bytes.count
            let sh = hash(suffixed)
            if find(suffixed, sh) == nil {
                if let r { repeats[r].count = n } else { repeats.append((first, n)) }
                insert(suffixed, sh)
                return (ranges.count &- 1, true)
            }
            n &+= 1
        }
    }

    private mutating func insert(_ range: Range<Int>, _ h: UInt64) {
        // Every `endID` keeps one id, so the table (twice `capacity`) is never more than half full.
        precondition(ranges.count &* 2 < slots.count, "more section ids than the capacity given")
        var s = Int(truncatingIfNeeded: h) & mask
        while slots[s] >= 0 { s = (s &+ 1) & mask }
        slots[s] = Int32(truncatingIfNeeded: ranges.count)
        ranges.append(range)
        hashes.append(h)
    }

    /// The index of the id with the bytes at `range`, if there is one.
    private func find(_ range: Range<Int>, _ h: UInt64) -> Int? {
        bytes.withUnsafeBufferPointer { b in
            var s = Int(truncatingIfNeeded: h) & mask
            while slots[s] >= 0 {
                let k = Int(slots[s])
                let other = ranges[k]
                if hashes[k] == h && other.count == range.count
                    && (range.isEmpty
                        || memcmpEqual(
                            b.baseAddress! + other.lowerBound, b.baseAddress! + range.lowerBound, range.count))
                {
                    return k
                }
                s = (s &+ 1) & mask
            }
            return nil
        }
    }

    private func hash(_ range: Range<Int>) -> UInt64 {
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress, !range.isEmpty else { return 0 }
            return byteHash(base + range.lowerBound, range.count)
        }
    }
}
