/// What a collection view shows, by id: its sections and each section's items. `applying(_:dataSource:)` is a model
/// of `UICollectionView.performBatchUpdates`: it refuses a batch UIKit would refuse ("invalid number of items in
/// section ...") and otherwise gives what the view shows afterwards, so a test can check a batch without UIKit.
public struct CollectionSnapshot: Sendable, Hashable, CustomStringConvertible {
    public struct Section: Sendable, Hashable {
        public var id: String
        public var items: [String]

        public init(id: String, items: [String]) {
            self.id = id
            self.items = items
        }
    }

    public var sections: [Section]

    public init(sections: [Section]) { self.sections = sections }

    /// A record's sections and rows.
    public init(_ record: Layout.Record) {
        sections = record.sections.map { Section(id: $0.id, items: $0.rows.map(\.id)) }
    }

    public var description: String {
        sections.map { "\($0.id)[\($0.items.joined(separator: ","))]" }.joined(separator: " ")
    }

    /// A batch UIKit would refuse, and why.
    public struct InvalidBatch: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// What the view shows after `batch`, given the data source now answers with `dataSource`. UIKit's rules:
    /// deletes, reloads and move sources name old places, inserts and move destinations new ones, each place once;
    /// no item operation in an inserted, deleted or reloaded section (nor, stricter than UIKit, whose animations
    /// misbehave there, in a moved one: `BatchUpdate` never asks for it); no item both moved and reloaded; and every
    /// section's new count is its old count less deletes and moves out, plus inserts and moves in. Items and
    /// sections not named keep their relative order and fill the places left; a reloaded one shows the new data.
    public func applying(_ batch: BatchUpdate, dataSource new: CollectionSnapshot) throws(InvalidBatch)
        -> CollectionSnapshot
    {
        if batch.reloadsAll { return new }
        let oldCount = sections.count, newCount = new.sections.count
        func fail(_ why: String) -> InvalidBatch { InvalidBatch(description: why) }

        // Sections.
        var oldUse = [String?](repeating: nil, count: oldCount)
        var newUse = [String?](repeating: nil, count: newCount)
        func useOld(_ i: Int, _ what: String) throws(InvalidBatch) {
            guard i >= 0 && i < oldCount else {
                throw fail("\(what) of section \(i): only \(oldCount) sections before")
            }
            if let earlier = oldUse[i] { throw fail("section \(i) is both \(earlier) and \(what)") }
            oldUse[i] = what
        }
        func useNew(_ j: Int, _ what: String) throws(InvalidBatch) {
            guard j >= 0 && j < newCount else { throw fail("\(what) of section \(j): only \(newCount) sections after") }
            if let earlier = newUse[j] { throw fail("section \(j) is both \(earlier) and \(what)") }
            newUse[j] = what
        }
        for i in batch.deletedSections { try useOld(i, "deleted") }
        for i in batch.reloadedSections { try useOld(i, "reloaded") }
        for m in batch.movedSections { try useOld(m.from, "moved") }
        for j in batch.insertedSections { try useNew(j, "inserted") }
        for m in batch.movedSections { try useNew(m.to, "moved in") }
        guard newCount == oldCount - batch.deletedSections.count + batch.insertedSections.count else {
            throw fail(
                "invalid number of sections: \(newCount) after, \(oldCount) before, \(batch.deletedSections.count) deleted and \(batch.insertedSections.count) inserted"
            )
        }
        // Old section → new, for those that stay: moves as given, the others in order into the places left.
        var newOfOld = [Int?](repeating: nil, count: oldCount)
        var oldOfNew = [Int?](repeating: nil, count: newCount)
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
        let reloaded = Set(batch.reloadedSections)

        // Items.
        var oldItemUse: [ItemPath: String] = [:]
        var newItemUse: [ItemPath: String] = [:]
        func useOldItem(_ p: ItemPath, _ what: String) throws(InvalidBatch) {
            guard p.section >= 0 && p.section < oldCount else {
                throw fail("\(what) item \(p): no such section before")
            }
            if let use = oldUse[p.section] { throw fail("\(what) item \(p) in a section that is \(use)") }
            guard p.item >= 0 && p.item < sections[p.section].items.count else {
                throw fail("\(what) item \(p): section \(p.section) had \(sections[p.section].items.count) items")
            }
            if let earlier = oldItemUse[p] { throw fail("item \(p) is both \(earlier) and \(what)") }
            oldItemUse[p] = what
        }
        func useNewItem(_ p: ItemPath, _ what: String) throws(InvalidBatch) {
            guard p.section >= 0 && p.section < newCount else { throw fail("\(what) item \(p): no such section after") }
            if let use = newUse[p.section] { throw fail("\(what) item \(p) in a section that is \(use)") }
            guard let i = oldOfNew[p.section], !reloaded.contains(i) else {
                throw fail("\(what) item \(p) in a section that is reloaded")
            }
            guard p.item >= 0 && p.item < new.sections[p.section].items.count else {
                throw fail("\(what) item \(p): section \(p.section) has \(new.sections[p.section].items.count) items")
            }
            if let earlier = newItemUse[p] { throw fail("item \(p) is both \(earlier) and \(what)") }
            newItemUse[p] = what
        }
        for p in batch.deletedItems { try useOldItem(p, "deleted") }
        for p in batch.reloadedItems { try useOldItem(p, "reloaded") }
        for m in batch.movedItems { try useOldItem(m.from, "moved") }
        for p in batch.insertedItems { try useNewItem(p, "inserted") }
        for m in batch.movedItems { try useNewItem(m.to, "moved in") }
        var delta = [Int](repeating: 0, count: newCount)
        for p in batch.deletedItems { delta[newOfOld[p.section]!] -= 1 }
        for m in batch.movedItems {
            delta[newOfOld[m.from.section]!] -= 1
            delta[m.to.section] += 1
        }
        for p in batch.insertedItems { delta[p.section] += 1 }
        for j in 0..<newCount {
            guard let i = oldOfNew[j], !reloaded.contains(i) else { continue }
            guard new.sections[j].items.count == sections[i].items.count + delta[j] else {
                throw fail(
                    "invalid number of items in section \(j): \(new.sections[j].items.count) after, \(sections[i].items.count) before (section \(i)), \(delta[j]) by the batch"
                )
            }
        }

        // What the view shows.
        var shown: [Section] = []
        shown.reserveCapacity(newCount)
        let movedIn = Dictionary(batch.movedItems.map { ($0.to, $0.from) }, uniquingKeysWith: { a, _ in a })
        for j in 0..<newCount {
            guard let i = oldOfNew[j], !reloaded.contains(i) else {
                shown.append(new.sections[j])
                continue
            }
            let count = new.sections[j].items.count
            var items = [String?](repeating: nil, count: count)
            for y in 0..<count {
                let p = ItemPath(section: j, item: y)
                if newItemUse[p] == "inserted" {
                    items[y] = new.sections[j].items[y]
                } else if let from = movedIn[p] {
                    items[y] = sections[from.section].items[from.item]
                }
            }
            var place = 0
            for x in 0..<sections[i].items.count {
                let use = oldItemUse[ItemPath(section: i, item: x)]
                guard use == nil || use == "reloaded" else { continue }
                while place < count && items[place] != nil { place += 1 }
                guard place < count else { throw fail("section \(j): more items stay than places") }
                // A reloaded item shows the new data at its place.
                items[place] = use == "reloaded" ? new.sections[j].items[place] : sections[i].items[x]
            }
            shown.append(Section(id: sections[i].id, items: items.map { $0 ?? "" }))
        }
        return CollectionSnapshot(sections: shown)
    }
}
