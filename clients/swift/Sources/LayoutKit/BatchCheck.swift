/// `CollectionSnapshot.applying`, step by step: where each section and item goes under UIKit's rules (refusing what
/// UIKit refuses), whether every section's count adds up, and what the view then shows.
struct BatchCheck {
    typealias InvalidBatch = CollectionSnapshot.InvalidBatch
    typealias Section = CollectionSnapshot.Section

    let old: [Section]
    let new: [Section]
    let batch: BatchUpdate
    /// What the batch does to each old and new section place ("deleted", "moved in", ...), nil when not named.
    var oldUse: [String?]
    var newUse: [String?]
    /// Old section → new and back, for the sections that stay.
    var newOfOld: [Int?]
    var oldOfNew: [Int?]
    let reloaded: Set<Int>
    /// What the batch does to each named item place.
    var oldItemUse: [ItemPath: String] = [:]
    var newItemUse: [ItemPath: String] = [:]

    init(old: CollectionSnapshot, new: CollectionSnapshot, batch: BatchUpdate) {
        self.old = old.sections
        self.new = new.sections
        self.batch = batch
        oldUse = Array(repeating: nil, count: old.sections.count)
        newUse = Array(repeating: nil, count: new.sections.count)
        newOfOld = Array(repeating: nil, count: old.sections.count)
        oldOfNew = Array(repeating: nil, count: new.sections.count)
        reloaded = Set(batch.reloadedSections)
    }

    func fail(_ why: String) -> InvalidBatch { InvalidBatch(description: why) }

    // MARK: Sections

    /// Checks each section place is named once and the section count adds up; maps the sections that stay: moves
    /// as given, the others in order into the places left.
    mutating func placeSections() throws(InvalidBatch) {
        for i in batch.deletedSections { try useOld(i, "deleted") }
        for i in batch.reloadedSections { try useOld(i, "reloaded") }
        for m in batch.movedSections { try useOld(m.from, "moved") }
        for j in batch.insertedSections { try useNew(j, "inserted") }
        for m in batch.movedSections { try useNew(m.to, "moved in") }
        let oldCount = old.count, newCount = new.count
        guard newCount == oldCount - batch.deletedSections.count + batch.insertedSections.count else {
            throw fail(
                "invalid number of sections: \(newCount) after, \(oldCount) before, \(batch.deletedSections.count) deleted and \(batch.insertedSections.count) inserted"
            )
        }
        for m in batch.movedSections {
            newOfOld[m.from] = m.to
            oldOfNew[m.to] = m.from
        }
        var free = (0..<newCount).filter { newUse[$0] == nil }.makeIterator()
        for i in 0..<oldCount where oldUse[i] == nil || oldUse[i] == "reloaded" {
            guard let j = free.next() else { throw fail("more sections stay than places after the batch") }
            newOfOld[i] = j
            oldOfNew[j] = i
        }
    }

    private mutating func useOld(_ i: Int, _ what: String) throws(InvalidBatch) {
        guard i >= 0 && i < old.count else { throw fail("\(what) of section \(i): only \(old.count) sections before") }
        if let earlier = oldUse[i] { throw fail("section \(i) is both \(earlier) and \(what)") }
        oldUse[i] = what
    }

    private mutating func useNew(_ j: Int, _ what: String) throws(InvalidBatch) {
        guard j >= 0 && j < new.count else { throw fail("\(what) of section \(j): only \(new.count) sections after") }
        if let earlier = newUse[j] { throw fail("section \(j) is both \(earlier) and \(what)") }
        newUse[j] = what
    }

    // MARK: Items

    /// Checks each item place is named once, inside a section that stays and is neither reloaded nor moved.
    mutating func placeItems() throws(InvalidBatch) {
        for p in batch.deletedItems { try useOldItem(p, "deleted") }
        for p in batch.reloadedItems { try useOldItem(p, "reloaded") }
        for m in batch.movedItems { try useOldItem(m.from, "moved") }
        for p in batch.insertedItems { try useNewItem(p, "inserted") }
        for m in batch.movedItems { try useNewItem(m.to, "moved in") }
    }

    private mutating func useOldItem(_ p: ItemPath, _ what: String) throws(InvalidBatch) {
        guard p.section >= 0 && p.section < old.count else { throw fail("\(what) item \(p): no such section before") }
        if let use = oldUse[p.section] { throw fail("\(what) item \(p) in a section that is \(use)") }
        guard p.item >= 0 && p.item < old[p.section].items.count else {
            throw fail("\(what) item \(p): section \(p.section) had \(old[p.section].items.count) items")
        }
        if let earlier = oldItemUse[p] { throw fail("item \(p) is both \(earlier) and \(what)") }
        oldItemUse[p] = what
    }

    private mutating func useNewItem(_ p: ItemPath, _ what: String) throws(InvalidBatch) {
        guard p.section >= 0 && p.section < new.count else { throw fail("\(what) item \(p): no such section after") }
        if let use = newUse[p.section] { throw fail("\(what) item \(p) in a section that is \(use)") }
        guard let i = oldOfNew[p.section], !reloaded.contains(i) else {
            throw fail("\(what) item \(p) in a section that is reloaded")
        }
        guard p.item >= 0 && p.item < new[p.section].items.count else {
            throw fail("\(what) item \(p): section \(p.section) has \(new[p.section].items.count) items")
        }
        if let earlier = newItemUse[p] { throw fail("item \(p) is both \(earlier) and \(what)") }
        newItemUse[p] = what
    }

    /// Checks every kept section's new count: its old count less deletes and moves out, plus inserts and moves in.
    func countItems() throws(InvalidBatch) {
        var delta = [Int](repeating: 0, count: new.count)
        for p in batch.deletedItems { delta[newOfOld[p.section]!] -= 1 }
        for m in batch.movedItems {
            delta[newOfOld[m.from.section]!] -= 1
            delta[m.to.section] += 1
        }
        for p in batch.insertedItems { delta[p.section] += 1 }
        for j in 0..<new.count {
            guard let i = oldOfNew[j], !reloaded.contains(i) else { continue }
            guard new[j].items.count == old[i].items.count + delta[j] else {
                throw fail(
                    "invalid number of items in section \(j): \(new[j].items.count) after, \(old[i].items.count) before (section \(i)), \(delta[j]) by the batch"
                )
            }
        }
    }

    // MARK: What the view shows

    /// Each new section: inserted and reloaded ones from the data source; a kept one with inserted and moved-in
    /// items at their places and the others, in order, in the places left (a reloaded item with the new data).
    func shown() throws(InvalidBatch) -> CollectionSnapshot {
        var shown: [Section] = []
        shown.reserveCapacity(new.count)
        let movedIn = Dictionary(batch.movedItems.map { ($0.to, $0.from) }, uniquingKeysWith: { a, _ in a })
        for j in 0..<new.count {
            guard let i = oldOfNew[j], !reloaded.contains(i) else {
                shown.append(new[j])
                continue
            }
            let count = new[j].items.count
            var items = [String?](repeating: nil, count: count)
            for y in 0..<count {
                let p = ItemPath(section: j, item: y)
                if newItemUse[p] == "inserted" {
                    items[y] = new[j].items[y]
                } else if let from = movedIn[p] {
                    items[y] = old[from.section].items[from.item]
                }
            }
            var place = 0
            for x in 0..<old[i].items.count {
                let use = oldItemUse[ItemPath(section: i, item: x)]
                guard use == nil || use == "reloaded" else { continue }
                while place < count && items[place] != nil { place += 1 }
                guard place < count else { throw fail("section \(j): more items stay than places") }
                items[place] = use == "reloaded" ? new[j].items[place] : old[i].items[x]
            }
            shown.append(Section(id: old[i].id, items: items.map { $0 ?? "" }))
        }
        return CollectionSnapshot(sections: shown)
    }
}
