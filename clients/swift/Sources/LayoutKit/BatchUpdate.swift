/// A change set as one collection-view batch, in `performBatchUpdates` terms: deletes and reloads name places in
/// the old layout, inserts places in the new one, moves go from old to new. Sections are the record's sections (all
/// of them: an invisible section has no rows and no views, so it draws nothing), items are their rows.
///
/// What a renderer cannot animate safely becomes a reload: a section whose members other than its rows changed, or
/// whose rows the server sent whole (duplicate ids), is reloaded; a moved section that also changed is deleted and
/// inserted; a moved row that also changed is deleted and inserted (UIKit refuses to move and reload one item). A
/// record replaced whole, or a section list sent whole, is `reloadsAll` (`reloadData`).
public struct BatchUpdate: Sendable, Hashable {
    /// Everything changed at once: reload the whole view from the new record.
    public var reloadsAll = false
    public var deletedSections: [Int] = []
    public var insertedSections: [Int] = []
    public var movedSections: [Layout.Move] = []
    public var reloadedSections: [Int] = []
    public var deletedItems: [ItemPath] = []
    public var insertedItems: [ItemPath] = []
    public var movedItems: [ItemMove] = []
    public var reloadedItems: [ItemPath] = []

    public init() {}

    /// The batch that shows `changeSet`'s target where its base was shown.
    public init(_ changeSet: Layout.ChangeSet) {
        if changeSet.replace != nil || changeSet.sections?.replace != nil {
            reloadsAll = true
            return
        }
        guard let sections = changeSet.sections else { return }
        deletedSections = sections.deletes
        insertedSections = sections.inserts.map(\.index)
        let updates = Dictionary(sections.updates.map { ($0.from, $0) }, uniquingKeysWith: { a, _ in a })
        let moved = Set(sections.moves.map(\.from))
        for move in sections.moves {
            if let u = updates[move.from], u.section != nil || u.rows != nil {
                deletedSections.append(move.from)
                insertedSections.append(move.to)
            } else {
                movedSections.append(move)
            }
        }
        for u in sections.updates where !moved.contains(u.from) {
            if u.section != nil || u.rows?.replace != nil {
                reloadedSections.append(u.from)
                continue
            }
            guard let rows = u.rows else { continue }
            deletedItems += rows.deletes.map { ItemPath(section: u.from, item: $0) }
            insertedItems += rows.inserts.map { ItemPath(section: u.to, item: $0.index) }
            let updated = Set(rows.updates.map(\.from))
            let rowMoved = Set(rows.moves.map(\.from))
            for m in rows.moves {
                let from = ItemPath(section: u.from, item: m.from), to = ItemPath(section: u.to, item: m.to)
                if updated.contains(m.from) {
                    deletedItems.append(from)
                    insertedItems.append(to)
                } else {
                    movedItems.append(ItemMove(from: from, to: to))
                }
            }
            for r in rows.updates where !rowMoved.contains(r.from) {
                reloadedItems.append(ItemPath(section: u.from, item: r.from))
            }
        }
        deletedSections.sort()
        insertedSections.sort()
        reloadedSections.sort()
        movedSections.sort { $0.from < $1.from }
        deletedItems.sort()
        insertedItems.sort()
        reloadedItems.sort()
        movedItems.sort { $0.from < $1.from }
    }

    /// True when the batch changes nothing a collection view shows.
    public var isEmpty: Bool {
        !reloadsAll && deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty
            && reloadedSections.isEmpty && deletedItems.isEmpty && insertedItems.isEmpty && movedItems.isEmpty
            && reloadedItems.isEmpty
    }
}
