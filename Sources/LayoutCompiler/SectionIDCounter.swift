import LayoutJSON

/// How many items so far took each section id: an open-addressing table keyed by the ids' bytes (`byteHash`, no
/// SipHash and no allocation per lookup), since every section's id is counted on every compile.
struct SectionIDCounter {
    private var ids: [String] = []
    private var hashes: [UInt64] = []
    private var counts: [Int] = []
    private var slots: [Int32]
    private var mask: Int

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        ids.reserveCapacity(capacity)
        hashes.reserveCapacity(capacity)
        counts.reserveCapacity(capacity)
    }

    /// How many items took `id` so far (nil: none).
    func count(of id: String) -> Int? {
        var id = id
        let h = Self.hash(&id)
        return find(id, h).map { counts[Int(slots[$0])] }
    }

    /// Records `id` as taken once and returns nil when it was free; otherwise returns its count, unchanged.
    mutating func take(_ id: String) -> Int? {
        var id = id
        let h = Self.hash(&id)
        if let s = find(id, h) { return counts[Int(slots[s])] }
        insert(id, h, count: 1)
        return nil
    }

    /// Records that `count` items took `id`.
    mutating func set(_ id: String, count: Int) {
        var id = id
        let h = Self.hash(&id)
        if let s = find(id, h) {
            counts[Int(slots[s])] = count
            return
        }
        insert(id, h, count: count)
    }

    private mutating func insert(_ id: String, _ h: UInt64, count: Int) {
        if (ids.count + 1) * 2 > slots.count { grow() }
        var s = Int(truncatingIfNeeded: h) & mask
        while slots[s] >= 0 { s = (s + 1) & mask }
        slots[s] = Int32(ids.count)
        ids.append(id)
        hashes.append(h)
        counts.append(count)
    }

    /// The slot holding `id`, if any.
    private func find(_ id: String, _ h: UInt64) -> Int? {
        var s = Int(truncatingIfNeeded: h) & mask
        while slots[s] >= 0 {
            let k = Int(slots[s])
            if hashes[k] == h && ids[k] == id { return s }
            s = (s + 1) & mask
        }
        return nil
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        mask = slots.count - 1
        for (k, h) in hashes.enumerated() {
            var s = Int(truncatingIfNeeded: h) & mask
            while slots[s] >= 0 { s = (s + 1) & mask }
            slots[s] = Int32(k)
        }
    }

    /// `byteHash` of the id's UTF-8 (made contiguous first, which a native string already is).
    private static func hash(_ id: inout String) -> UInt64 {
        if let h = id.utf8.withContiguousStorageIfAvailable({ byteHash($0.baseAddress!, $0.count) }) { return h }
        id.makeContiguousUTF8()
        return id.utf8.withContiguousStorageIfAvailable { byteHash($0.baseAddress!, $0.count) }!
    }
}
