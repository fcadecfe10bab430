import LayoutJSON

/// Matches two lists by id in linear time (Heckel): deletes, inserts, and the moves that keep the rest in order.
struct ListDiff {
    /// Old indexes no longer present, ascending.
    var deletes: [Int] = []
    /// New indexes not present before, ascending.
    var inserts: [Int] = []
    /// Surviving items whose relative order changed, in new order.
    var moves: [(from: Int, to: Int)] = []
    /// Every surviving item (old index, new index), in new order.
    var matches: [(from: Int, to: Int)] = []
    /// Ids found more than once in either list; when non-empty the other fields are empty (the list is replaced whole).
    var duplicates: [[UInt8]] = []

    /// Diffs lists whose ids are the raw JSON tokens (quotes included) of string nodes `old` in `od` and `new` in `nd`.
    init(old: [Int], in od: JSONDocument, new: [Int], in nd: JSONDocument) {
        let oldIDs = IDTable.Keys(ids: old, in: od), newIDs = IDTable.Keys(ids: new, in: nd)
        var newTable = IDTable(capacity: new.count)
        var oldTable = IDTable(capacity: old.count)
        var dupes: [[UInt8]] = []
        nd.bytes.withUnsafeBufferPointer { nb in
            od.bytes.withUnsafeBufferPointer { ob in
                for j in 0..<new.count where newTable.insert(j, newIDs, nb) != nil { dupes.append(newIDs.bytes(j, nb)) }
                for i in 0..<old.count where oldTable.insert(i, oldIDs, ob) != nil { dupes.append(oldIDs.bytes(i, ob)) }
                guard dupes.isEmpty else { return }
                var newToOld = [Int](repeating: -1, count: new.count)
                for i in 0..<old.count {
                    if let j = newTable.find(oldIDs, i, ob, in: newIDs, nb) { newToOld[j] = i } else { deletes.append(i) }
                }
                var sequence: [Int] = []
                sequence.reserveCapacity(new.count)
                matches.reserveCapacity(new.count)
                for j in 0..<new.count {
                    let i = newToOld[j]
                    if i < 0 { inserts.append(j) } else {
                        matches.append((i, j))
                        sequence.append(i)
                    }
                }
                let stable = Self.longestIncreasing(sequence)
                for (k, m) in matches.enumerated() where !stable[k] { moves.append(m) }
            }
        }
        if !dupes.isEmpty {
            duplicates = Array(Set(dupes)).sorted { $0.lexicographicallyPrecedes($1) }
        }
    }

    /// Marks a longest strictly increasing subsequence of `s` (patience sorting; O(n) when `s` is already sorted).
    static func longestIncreasing(_ s: [Int]) -> [Bool] {
        var sorted = true
        for k in s.indices.dropFirst() where s[k - 1] > s[k] {
            sorted = false
            break
        }
        if sorted { return [Bool](repeating: true, count: s.count) }
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: s.count)
        for k in s.indices {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if s[tails[mid]] < s[k] { lo = mid + 1 } else { hi = mid }
            }
            previous[k] = lo > 0 ? tails[lo - 1] : -1
            if lo == tails.count { tails.append(k) } else { tails[lo] = k }
        }
        var stable = [Bool](repeating: false, count: s.count)
        var k = tails.last ?? -1
        while k >= 0 {
            stable[k] = true
            k = previous[k]
        }
        return stable
    }
}

/// An open-addressing table of list positions keyed by id bytes (no per-id allocation or reference counting).
struct IDTable {
    /// The ids of one list: byte ranges in one document, and their hashes.
    struct Keys {
        var starts: [Int32]
        var counts: [Int32]
        var hashes: [UInt64]

        init(ids: [Int], in doc: JSONDocument) {
            starts = []
            counts = []
            hashes = []
            starts.reserveCapacity(ids.count)
            counts.reserveCapacity(ids.count)
            hashes.reserveCapacity(ids.count)
            doc.nodes.withUnsafeBufferPointer { nodes in
                doc.bytes.withUnsafeBufferPointer { b in
                    for id in ids {
                        let n = nodes[id]
                        starts.append(Int32(n.start))
                        counts.append(Int32(n.end - n.start))
                        hashes.append(Self.hash(b.baseAddress! + Int(n.start), Int(n.end - n.start)))
                    }
                }
            }
        }

        /// FNV-1a over 8-byte words, then mixed (ids are short).
        static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            let raw = UnsafeRawPointer(p)
            var i = 0
            while i + 8 <= n {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
                i += 8
            }
            while i < n {
                h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01B3
                i += 1
            }
            h ^= h >> 29
            h = h &* 0xBF58_476D_1CE4_E5B9
            return h ^ (h >> 32)
        }

        func bytes(_ k: Int, _ b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            Array(UnsafeBufferPointer(rebasing: b[Int(starts[k])..<Int(starts[k] + counts[k])]))
        }

        @inline(__always) func equal(_ k: Int, _ b: UnsafeBufferPointer<UInt8>, _ other: Keys, _ m: Int, _ ob: UnsafeBufferPointer<UInt8>) -> Bool {
            hashes[k] == other.hashes[m] && counts[k] == other.counts[m]
                && sameBytes(b.baseAddress! + Int(starts[k]), ob.baseAddress! + Int(other.starts[m]), Int(counts[k]))
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
    func find(_ probe: Keys, _ m: Int, _ pb: UnsafeBufferPointer<UInt8>, in keys: Keys, _ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var s = Int(truncatingIfNeeded: probe.hashes[m]) & mask
        while slots[s] >= 0 {
            let k = Int(slots[s])
            if keys.equal(k, b, probe, m, pb) { return k }
            s = (s + 1) & mask
        }
        return nil
    }
}

/// Byte equality of two slices (possibly of different buffers).
@inline(__always) func sameBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    let n = a.count
    guard n == b.count else { return false }
    return a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in n == 0 || sameBytes(pa.baseAddress!, pb.baseAddress!, n) } }
}

/// Byte equality of `n` bytes at two addresses.
@inline(__always) func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
    var i = 0
    while i + 8 <= n {
        if ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
        i += 8
    }
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
