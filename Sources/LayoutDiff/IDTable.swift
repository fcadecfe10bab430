import LayoutJSON

/// An open-addressing table of list positions keyed by id bytes (no per-id allocation or reference counting).
struct IDTable {
    /// The ids of one list: byte ranges in one document, and their hashes.
    struct Keys {
        var starts: [Int32]
        var counts: [Int32]
        var hashes: [UInt64]

        init(ids: [Range<Int>], in bytes: [UInt8]) {
            starts = []
            counts = []
            hashes = []
            starts.reserveCapacity(ids.count)
            counts.reserveCapacity(ids.count)
            hashes.reserveCapacity(ids.count)
            bytes.withUnsafeBufferPointer { b in
                for id in ids {
                    starts.append(Int32(truncatingIfNeeded: id.lowerBound))
                    counts.append(Int32(truncatingIfNeeded: id.count))
                    hashes.append(byteHash(b.baseAddress! + id.lowerBound, id.count))
                }
            }
        }

        func bytes(_ k: Int, _ b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            Array(UnsafeBufferPointer(rebasing: b[Int(starts[k])..<Int(starts[k] + counts[k])]))
        }

        @inline(__always) func equal(
            _ k: Int, _ b: UnsafeBufferPointer<UInt8>, _ other: Keys, _ m: Int, _ ob: UnsafeBufferPointer<UInt8>
        ) -> Bool {
            hashes[k] == other.hashes[m] && counts[k] == other.counts[m]
                && memcmpEqual(b.baseAddress! + Int(starts[k]), ob.baseAddress! + Int(other.starts[m]), Int(counts[k]))
        }
    }

    private var slots: [Int32]
    private let mask: Int

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    /// Adds position `k` of `keys`; returns the earlier position with the same id instead when there is one.
    mutating func insert(_ k: Int, _ keys: Keys, _ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var s = Int(truncatingIfNeeded: keys.hashes[k]) & mask
        while slots[s] >= 0 {
            let other = Int(slots[s])
            if keys.equal(k, b, keys, other, b) { return other }
            s = (s + 1) & mask
        }
        slots[s] = Int32(k)
        return nil
    }

    /// The position (in `keys`, the table's list) of the id at `m` of `probe`.
    func find(_ probe: Keys, _ m: Int, _ pb: UnsafeBufferPointer<UInt8>, in keys: Keys, _ b: UnsafeBufferPointer<UInt8>)
        -> Int?
    {
        var s = Int(truncatingIfNeeded: probe.hashes[m]) & mask
        while slots[s] >= 0 {
            let k = Int(slots[s])
            if keys.equal(k, b, probe, m, pb) { return k }
            s = (s + 1) & mask
        }
        return nil
    }
}
