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
    var duplicates: [ArraySlice<UInt8>] = []

    /// Diffs lists given as the raw JSON tokens of their ids.
    init(old: [ArraySlice<UInt8>], new: [ArraySlice<UInt8>]) {
        var newIndex = [IDKey: Int](minimumCapacity: new.count)
        var dupes = Set<IDKey>()
        for (j, id) in new.enumerated() where newIndex.updateValue(j, forKey: IDKey(id)) != nil { dupes.insert(IDKey(id)) }
        var oldSeen = Set<IDKey>(minimumCapacity: old.count)
        for id in old where !oldSeen.insert(IDKey(id)).inserted { dupes.insert(IDKey(id)) }
        guard dupes.isEmpty else {
            duplicates = dupes.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
            return
        }
        var newToOld = [Int](repeating: -1, count: new.count)
        for (i, id) in old.enumerated() {
            if let j = newIndex[IDKey(id)] { newToOld[j] = i } else { deletes.append(i) }
        }
        var sequence: [Int] = []
        sequence.reserveCapacity(new.count)
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

/// An id token usable as a dictionary key across documents.
struct IDKey: Hashable {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: IDKey, b: IDKey) -> Bool { sameBytes(a.bytes, b.bytes) }
}

/// Byte equality of two slices (possibly of different buffers).
@inline(__always) func sameBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    let n = a.count
    guard n == b.count else { return false }
    return a.withUnsafeBytes { pa in
        b.withUnsafeBytes { pb in
            var i = 0
            while i + 8 <= n {
                if pa.loadUnaligned(fromByteOffset: i, as: UInt64.self) != pb.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
                i += 8
            }
            while i < n {
                if pa[i] != pb[i] { return false }
                i += 1
            }
            return true
        }
    }
}
