import Foundation
import LayoutDiff
import LayoutKit
import LayoutRecord
import TestSupport
import Testing

/// The server's change sets, turned into collection-view batches by the renderer kit, never give UIKit an invalid
/// batch, and after each batch the view shows the target record's section and row ids.
@Suite struct BatchUpdatePropertyTests {
    /// A random edit, or (one time in eight) a duplicated section or row id, which the differ sends as a list replace.
    static func next(_ r: RecordModel, _ g: inout SeededRandom, _ counter: inout Int) -> RecordModel {
        var r = r
        if Int.random(in: 0..<8, using: &g) == 0, !r.sections.isEmpty {
            let k = Int.random(in: 0..<r.sections.count, using: &g)
            if r.sections[k].rows.count > 1 && Bool.random(using: &g) {
                r.sections[k].rows[1].id = r.sections[k].rows[0].id
            } else if r.sections.count > 1 {
                r.sections[(k + 1) % r.sections.count].id = r.sections[k].id
            }
            r.offset = (r.offset ?? 0) + 1
            return r
        }
        return Edit.allCases.randomElement(using: &g)!.apply(to: r, &g, counter: &counter)
    }

    static func snapshot(_ r: RecordModel) -> CollectionSnapshot {
        CollectionSnapshot(sections: r.sections.map { .init(id: $0.id, items: $0.rows.map(\.id)) })
    }

    @Test func tenThousandRandomChangeSetsAreValidBatches() throws {
        var g = SeededRandom(seed: 0xBA7C4)
        var counter = 0
        let differ = LayoutDiffer()
        let applier = ChangeSetApplier()
        var current = RecordModel.random(&g, counter: &counter)
        var shown = CollectionSnapshot(sections: [])
        var renderer: [UInt8]? = nil
        var invalid = 0, wrong = 0
        var counts = (reloadsAll: 0, sectionReloads: 0, sectionMoves: 0, itemMoves: 0, itemReloads: 0, replaced: 0)
        // The Android kit is held to the same change sets: with LW_RANDOM_CHANGE_SETS set, each change set and its
        // target are written there, a line each (clients/android's RandomChangeSetsTest reads them).
        let export = ProcessInfo.processInfo.environment["LW_RANDOM_CHANGE_SETS"]
        var exported: [UInt8] = []
        for n in 0..<10_000 {
            // Every 500 change sets, a fresh page: change sets from empty too.
            let old: RecordModel? = n % 500 == 0 ? nil : current
            let new = n % 500 == 0 ? RecordModel.random(&g, counter: &counter) : Self.next(current, &g, &counter)
            let bytes = new.bytes()
            let cs = differ.diff(
                from: try old.map { try RecordOutline(bytes: $0.bytes()) }, to: try RecordOutline(bytes: bytes),
                key: "k")
            if old == nil { renderer = nil; shown = CollectionSnapshot(sections: []) }
            renderer = try applier.apply(cs.bytes, to: renderer)
            #expect(renderer == bytes)
            if export != nil { exported += cs.bytes + [0x0A] + bytes + [0x0A] }
            let decoded = try JSONDecoder().decode(Layout.ChangeSet.self, from: Data(cs.bytes))
            let batch = BatchUpdate(decoded)
            do {
                shown = try shown.applying(batch, dataSource: Self.snapshot(new))
                if shown != Self.snapshot(new) { wrong += 1 }
            } catch {
                invalid += 1
                if invalid <= 3 {
                    Issue.record("change set \(n): \(error)\n\(String(decoding: cs.bytes, as: UTF8.self))")
                }
                shown = Self.snapshot(new)
            }
            if batch.reloadsAll { counts.reloadsAll += 1 }
            counts.sectionReloads += batch.reloadedSections.count
            counts.sectionMoves += batch.movedSections.count
            counts.itemMoves += batch.movedItems.count
            counts.itemReloads += batch.reloadedItems.count
            counts.replaced += cs.summary.replacedLists
            current = new
        }
        #expect(invalid == 0 && wrong == 0, "\(invalid) invalid batches, \(wrong) showing other ids than the record")
        if let export { try Data(exported).write(to: URL(fileURLWithPath: export)) }
        // Every kind of batch step occurred, duplicate-id list replaces included.
        #expect(counts.reloadsAll > 0 && counts.sectionReloads > 0 && counts.sectionMoves > 0)
        #expect(counts.itemMoves > 0 && counts.itemReloads > 0 && counts.replaced > 100)
        print("batch updates: 10,000 change sets, 0 invalid; \(counts)")
    }
}
