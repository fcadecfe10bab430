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

    /// Diffs lists whose ids are raw JSON string tokens (quotes included) at `old` in `od` and at `new` in `nd`.
    init(old: [Range<Int>], in od: [UInt8], new: [Range<Int>], in nd: [UInt8]) {
        let oldIDs = IDTable.Keys(ids: old, in: od), newIDs = IDTable.Keys(ids: new, in: nd)
        var newTable = IDTable(capacity: new.count)
        var oldTable = IDTable(capacity: old.count)
        var dupes: [[UInt8]] = []
        nd.withUnsafeBufferPointer { nb in
            od.withUnsafeBufferPointer { ob in
                for j in 0..<new.count where newTable.insert(j, newIDs, nb) != nil { dupes.append(newIDs.bytes(j, nb)) }
                for i in 0..<old.count where oldTable.insert(i, oldIDs, ob) != nil { dupes.append(oldIDs.bytes(i, ob)) }
                guard dupes.isEmpty else { return }
                var newToOld = [Int](repeating: -1, count: new.count)
                for i in 0..<old.count {
                    if let j = newTable.find(oldIDs, i, ob, in: newIDs, nb) {
                        newToOld[j] = i
                    } else {
                        deletes.append(i)
                    }
                }
                var sequence: [Int] = []
                sequence.reserveCapacity(new.count)
                matches.reserveCapacity(new.count)
                for j in 0..<new.count {
                    let i = newToOld[j]
                    if i < 0 {
                        inserts.append(j)
                    } else {
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
