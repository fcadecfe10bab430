import LayoutKit
import Testing

/// Change sets become batches UIKit accepts, and after each batch the view shows the target record's ids.
@Suite struct BatchUpdateTests {
    @Test(.enabled(if: Fixtures.shared != nil, "\(Fixtures.missing)"))
    func everyFixtureIsAValidBatchThatShowsTheTarget() throws {
        let fixtures = try #require(Fixtures.shared)
        var reloadsAll = 0, sectionReloads = 0, itemMoves = 0
        for c in fixtures.cases {
            let base = try c.base.map { try decode(Layout.Record.self, $0) } ?? .empty
            let target = try decode(Layout.Record.self, c.target)
            let batch = BatchUpdate(try decode(Layout.ChangeSet.self, c.changeSet))
            let shown = try CollectionSnapshot(base).applying(batch, dataSource: CollectionSnapshot(target))
            #expect(shown == CollectionSnapshot(target), "\(c.name)")
            if batch.reloadsAll { reloadsAll += 1 }
            sectionReloads += batch.reloadedSections.count
            itemMoves += batch.movedItems.count
        }
        // The fixtures hold each kind: duplicate-id list replaces, changed sections, moved rows.
        #expect(reloadsAll > 0 && sectionReloads > 0 && itemMoves > 0)
    }

    static func section(_ id: String, _ rows: [String], head: String = "") -> Layout.Section {
        Layout.Section(
            id: id, type: "T" + head, rows: rows.map { Layout.Row(id: $0, renderer: "Cell") })
    }

    static func snapshot(_ s: [(String, [String])]) -> CollectionSnapshot {
        CollectionSnapshot(sections: s.map { CollectionSnapshot.Section(id: $0.0, items: $0.1) })
    }

    @Test func movedAndChangedRowsAreDeletedAndInsertedNotReloaded() throws {
        var rows = Layout.ListChanges<Layout.Row, Layout.RowUpdate>()
        rows.moves = [Layout.Move(from: 0, to: 2), Layout.Move(from: 1, to: 0)]
        rows.updates = [
            Layout.RowUpdate(from: 0, to: 2, row: Layout.Row(id: "a", renderer: "Big")),
            Layout.RowUpdate(from: 2, to: 1, row: Layout.Row(id: "c", renderer: "Big")),
        ]
        var sections = Layout.ListChanges<Layout.Section, Layout.SectionUpdate>()
        sections.updates = [Layout.SectionUpdate(from: 0, to: 0, id: "s", section: nil, rows: rows)]
        let cs = Layout.ChangeSet(
            version: 2, kind: "layout-change-set", key: "k", base: .init(offset: 1, hash: "0"),
            target: .init(offset: 2, hash: "1"), record: [:], sections: sections, replace: nil, diagnostics: [])
        let batch = BatchUpdate(cs)
        #expect(batch.deletedItems == [ItemPath(section: 0, item: 0)])
        #expect(batch.insertedItems == [ItemPath(section: 0, item: 2)])
        #expect(batch.movedItems == [ItemMove(from: ItemPath(section: 0, item: 1), to: ItemPath(section: 0, item: 0))])
        #expect(batch.reloadedItems == [ItemPath(section: 0, item: 2)])
        let shown = try Self.snapshot([("s", ["a", "b", "c"])]).applying(
            batch, dataSource: Self.snapshot([("s", ["b", "c", "a"])]))
        #expect(shown == Self.snapshot([("s", ["b", "c", "a"])]))
    }

    @Test func theConsistencyModelRefusesWhatUIKitRefuses() {
        let old = Self.snapshot([("s0", ["a", "b"]), ("s1", ["c"])])
        let new = Self.snapshot([("s0", ["a", "b", "x"]), ("s1", ["c"])])
        func refused(_ batch: BatchUpdate, _ why: String, _ data: CollectionSnapshot? = nil) {
            #expect(throws: CollectionSnapshot.InvalidBatch.self, "\(why)") {
                try old.applying(batch, dataSource: data ?? new)
            }
        }
        var b = BatchUpdate()
        refused(b, "an insert the batch does not announce: invalid number of items")
        b.insertedItems = [ItemPath(section: 0, item: 5)]
        refused(b, "an insert out of range")
        b = BatchUpdate()
        b.insertedItems = [ItemPath(section: 0, item: 2)]
        b.reloadedSections = [0]
        refused(b, "an item operation in a reloaded section")
        b = BatchUpdate()
        b.deletedItems = [ItemPath(section: 0, item: 1)]
        b.reloadedItems = [ItemPath(section: 0, item: 1)]
        b.insertedItems = [ItemPath(section: 0, item: 1), ItemPath(section: 0, item: 2)]
        refused(b, "one item deleted and reloaded")
        b = BatchUpdate()
        b.movedItems = [ItemMove(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 1))]
        b.reloadedItems = [ItemPath(section: 0, item: 0)]
        b.insertedItems = [ItemPath(section: 0, item: 2)]
        refused(b, "one item moved and reloaded")
        b = BatchUpdate()
        b.deletedSections = [1]
        b.deletedItems = [ItemPath(section: 1, item: 0)]
        refused(b, "an item deleted in a deleted section", Self.snapshot([("s0", ["a", "b"])]))
        b = BatchUpdate()
        b.insertedSections = [2]
        refused(b, "a section insert the data source does not have")
        b = BatchUpdate()
        b.insertedItems = [ItemPath(section: 0, item: 2)]
        #expect(throws: Never.self) { try old.applying(b, dataSource: new) }
    }

    @Test func aBatchThatLeavesTheWrongIdsIsCaught() throws {
        // Valid for UIKit (counts add up) but wrong: the view would keep showing b where the record has y.
        let old = Self.snapshot([("s0", ["a", "b"])])
        let new = Self.snapshot([("s0", ["a", "y"])])
        let shown = try old.applying(BatchUpdate(), dataSource: new)
        #expect(shown != new)
    }
}
