/// Where each item of a patched list comes from, worked out from a change set's deletes, inserts, moves and updates
/// (and checked: every index in range, every place filled once).
struct ListPlan {
    enum Slot: Equatable {
        /// An item of the old list (by old index).
        case old(Int)
        /// An inserted item (its payload in the change set).
        case inserted(JSONText.Span)
    }

    var slots: [Slot]
    /// The update object for each old index that has one.
    var updates: [JSONText.Span?]

    /// The members of a list's changes the plan reads, in the order `init` takes their values.
    static let keys = [Wire.Key.deletes, Wire.Key.inserts, Wire.Key.moves, Wire.Key.updates]

    /// Reads and checks a list's changes (the values of `keys`, found by the caller in its one pass over the changes
    /// object) against an old list of `oldCount` items; `payload` names the inserted item's member (`section`,
    /// `row`), `what` the list in errors.
    init(_ lists: [JSONText.Span?], in cs: JSONText, oldCount: Int, payload: StaticString, what: StaticString)
        throws(ChangeSetError)
    {
        func array(_ k: Int) throws(ChangeSetError) -> [JSONText.Span] {
            guard let node = lists[k] else { return [] }
            guard cs.kind(node) == .array else { throw .invalidChangeSet("\(what).\(Self.keys[k]) is not an array") }
            return try cs.elements(node)
        }
        func index(_ node: JSONText.Span?, _ field: String, below limit: Int) throws(ChangeSetError) -> Int {
            guard let i = cs.int(node), i >= 0, i < limit else {
                throw .invalidChangeSet("\(what): `\(field)` missing or out of range 0..<\(limit)")
            }
            return i
        }
        let deletes = try array(0), inserts = try array(1), moves = try array(2), updateNodes = try array(3)
        var removed = [Bool](repeating: false, count: oldCount)
        for d in deletes {
            let i = try index(d, "deletes[]", below: oldCount)
            guard !removed[i] else { throw .invalidChangeSet("\(what): old index \(i) deleted or moved twice") }
            removed[i] = true
        }
        let newCount = oldCount - deletes.count + inserts.count
        guard newCount >= 0 else { throw .invalidChangeSet("\(what): more deletes than items") }
        var slots = [Slot?](repeating: nil, count: newCount)
        for ins in inserts {
            let v = try cs.values(ins, [Wire.Key.index, payload])
            let j = try index(v[0], "inserts[].index", below: newCount)
            guard let node = v[1] else {
                throw .invalidChangeSet("\(what).inserts[] has no `\(payload)`")
            }
            guard slots[j] == nil else { throw .invalidChangeSet("\(what): new index \(j) filled twice") }
            slots[j] = .inserted(node)
        }
        for move in moves {
            let v = try cs.values(move, [Wire.Key.from, Wire.Key.to])
            let i = try index(v[0], "moves[].from", below: oldCount)
            let j = try index(v[1], "moves[].to", below: newCount)
            guard !removed[i] else { throw .invalidChangeSet("\(what): old index \(i) deleted or moved twice") }
            guard slots[j] == nil else { throw .invalidChangeSet("\(what): new index \(j) filled twice") }
            removed[i] = true
            slots[j] = .old(i)
        }
        var next = 0
        for j in 0..<newCount where slots[j] == nil {
            while next < oldCount && removed[next] { next += 1 }
            guard next < oldCount else { throw .invalidChangeSet("\(what): fewer surviving items than places to fill") }
            slots[j] = .old(next)
            next += 1
        }
        while next < oldCount && removed[next] { next += 1 }
        guard next == oldCount else { throw .invalidChangeSet("\(what): more surviving items than places to fill") }
        var updates = [JSONText.Span?](repeating: nil, count: oldCount)
        var position = [Int](repeating: -1, count: oldCount)
        var filled: [Slot] = []
        filled.reserveCapacity(newCount)
        for (j, slot) in slots.enumerated() {
            guard let slot else { throw .invalidChangeSet("\(what): new index \(j) left empty") }
            if case .old(let i) = slot { position[i] = j }
            filled.append(slot)
        }
        for u in updateNodes {
            let v = try cs.values(u, [Wire.Key.from, Wire.Key.to])
            let i = try index(v[0], "updates[].from", below: oldCount)
            let j = try index(v[1], "updates[].to", below: newCount)
            guard position[i] == j else {
                throw .invalidChangeSet(
                    "\(what): update from \(i) to \(j) disagrees with the moves (item lands at \(position[i]))")
            }
            guard updates[i] == nil else { throw .invalidChangeSet("\(what): old index \(i) updated twice") }
            updates[i] = u
        }
        self.slots = filled
        self.updates = updates
    }
}
