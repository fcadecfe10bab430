import LayoutDiff
import LayoutJSON
import LayoutKit
import LayoutRecord
import TestSupport
import Testing

/// diff → write → apply reproduces the new record byte for byte, for random edits of every kind.
@Suite struct DiffPropertyTests {
    let differ = LayoutDiffer()
    let applier = ChangeSetApplier()

    func roundTrip(_ a: [UInt8]?, _ b: [UInt8], key: String? = "k") throws -> ChangeSet {
        let old = try a.map { try RecordOutline(bytes: $0) }
        let cs = differ.diff(from: old, to: try RecordOutline(bytes: b), key: key)
        let rebuilt = try applier.apply(cs.bytes, to: a)
        #expect(
            rebuilt == b,
            "applying the change set did not reproduce the record:\n\(String(decoding: cs.bytes, as: UTF8.self))")
        return cs
    }

    @Test(arguments: Edit.allCases)
    func randomEditsRoundTrip(_ edit: Edit) throws {
        var g = SeededRandom(seed: 0xC0FFEE &+ UInt64(Edit.allCases.firstIndex(of: edit)!))
        var counter = 0
        for _ in 0..<300 {
            var old = RecordModel.random(&g, counter: &counter)
            if edit == .emptyToFull { old.sections = [] }
            let new = edit.apply(to: old, &g, counter: &counter)
            let cs = try roundTrip(old.bytes(), new.bytes())
            #expect(cs.summary.replacedLists == 0)
            if edit == .fullToEmpty {
                #expect(cs.summary.sectionDeletes == old.sections.count && cs.summary.sectionInserts == 0)
            }
            if edit == .emptyToFull {
                #expect(cs.summary.sectionInserts == new.sections.count && cs.summary.sectionDeletes == 0)
            }
        }
    }

    @Test func sequencesOfChangeSetsRebuildEveryRecord() throws {
        var g = SeededRandom(seed: 42)
        var counter = 0
        var current = RecordModel.random(&g, counter: &counter)
        var renderer: [UInt8]? = nil
        let first = try roundTrip(nil, current.bytes())
        renderer = try applier.apply(first.bytes, to: renderer)
        for _ in 0..<200 {
            let next = Edit.allCases.randomElement(using: &g)!.apply(to: current, &g, counter: &counter)
            let cs = differ.diff(
                from: try RecordOutline(bytes: current.bytes()), to: try RecordOutline(bytes: next.bytes()), key: "k")
            renderer = try applier.apply(cs.bytes, to: renderer)
            #expect(renderer == next.bytes())
            current = next
        }
    }

    @Test func firstLayoutIsAChangeSetFromEmpty() throws {
        var g = SeededRandom(seed: 7)
        var counter = 0
        let r = RecordModel.random(&g, sections: 3...3, rows: 2...2, counter: &counter)
        let cs = try roundTrip(nil, r.bytes())
        let doc = try JSONReader().read(cs.bytes)
        #expect(doc.kind(doc.value(doc.root, "base")!) == .null)
        #expect(cs.base == nil)
        #expect(cs.summary.sectionInserts == 3)
    }

    @Test func identicalRecordsGiveAnEmptyChangeSet() throws {
        var g = SeededRandom(seed: 8)
        var counter = 0
        let r = RecordModel.random(&g, sections: 5...5, rows: 4...4, counter: &counter)
        let cs = try roundTrip(r.bytes(), r.bytes())
        #expect(cs.summary == ChangeSummary())
        #expect(cs.base?.hash == cs.target.hash)
    }

    @Test func movesAreMinimal() throws {
        // One row moved from the end to the front is one move, not n.
        var r = RecordModel(offset: 1)
        r.sections = [
            .init(
                id: "s", type: "ResultsList",
                rows: (0..<50).map { .init(id: "r\($0)", renderer: "Cell", model: $0, action: nil) })
        ]
        var moved = r
        moved.sections[0].rows.insert(moved.sections[0].rows.removeLast(), at: 0)
        let cs = try roundTrip(r.bytes(), moved.bytes())
        #expect(
            cs.summary.rowMoves == 1 && cs.summary.rowInserts == 0 && cs.summary.rowDeletes == 0
                && cs.summary.rowUpdates == 0)
        // Reversal keeps one row in place.
        var reversed = r
        reversed.sections[0].rows.reverse()
        #expect(try roundTrip(r.bytes(), reversed.bytes()).summary.rowMoves == 49)
    }

    @Test func aRowIsUpdatedWhenRendererModelOrActionChanges() throws {
        var r = RecordModel(offset: 1)
        r.sections = [
            .init(
                id: "s", type: "ResultsList",
                rows: (0..<3).map { .init(id: "r\($0)", renderer: "Cell", model: $0, action: nil) })
        ]
        for change in 0..<3 {
            var b = r
            switch change {
            case 0: b.sections[0].rows[1].renderer = "Other"
            case 1: b.sections[0].rows[1].model = 9
            default: b.sections[0].rows[1].action = "/x"
            }
            let cs = try roundTrip(r.bytes(), b.bytes())
            #expect(cs.summary.rowUpdates == 1 && cs.summary.sectionUpdates == 1 && cs.summary.rowMoves == 0)
        }
    }

    @Test func insertingASectionDoesNotUpdateTheOnesAfterIt() throws {
        var r = RecordModel(offset: 1)
        r.sections = (0..<4).map {
            .init(id: "s\($0)", type: "T", rows: [.init(id: "r", renderer: nil, model: $0, action: nil)])
        }
        var b = r
        b.sections.insert(.init(id: "new", type: "T"), at: 0)
        let cs = try roundTrip(r.bytes(), b.bytes())
        // Every later section's `index` and `path` changed, but they are position, not content.
        #expect(cs.summary.sectionInserts == 1 && cs.summary.sectionUpdates == 0 && cs.summary.sectionMoves == 0)
        #expect(cs.summary.sectionPaths == 4)
    }

    @Test func duplicateIdsFallBackToAFullReplaceWithADiagnostic() throws {
        var r = RecordModel(offset: 1)
        r.sections = [
            .init(
                id: "s", type: "T",
                rows: [
                    .init(id: "a", renderer: nil, model: 1, action: nil),
                    .init(id: "b", renderer: nil, model: 2, action: nil),
                ])
        ]
        var b = r
        b.sections[0].rows.append(.init(id: "a", renderer: nil, model: 3, action: nil))
        let cs = try roundTrip(r.bytes(), b.bytes())
        #expect(cs.summary.replacedLists == 1)
        let text = String(decoding: cs.bytes, as: UTF8.self)
        #expect(text.contains(#""code":"duplicate-ids","path":"s.rows""#))
        #expect(text.contains(#"duplicate ids \"a\" in s.rows"#))
        // Duplicate section ids: the section list is replaced.
        var c = r
        c.sections.append(c.sections[0])
        let cs2 = try roundTrip(r.bytes(), c.bytes())
        #expect(cs2.summary.replacedLists == 1)
        #expect(String(decoding: cs2.bytes, as: UTF8.self).contains(#""path":"sections""#))
        // Random duplicates never crash and still round-trip.
        var g = SeededRandom(seed: 99)
        var counter = 0
        for _ in 0..<200 {
            var x = RecordModel.random(&g, sections: 1...5, rows: 1...6, counter: &counter)
            var y = Edit.mixed.apply(to: x, &g, counter: &counter)
            for m in [0, 1] {
                var target = m == 0 ? x : y
                guard !target.sections.isEmpty else { continue }
                let k = Int.random(in: 0..<target.sections.count, using: &g)
                if let row = target.sections[k].rows.randomElement(using: &g) { target.sections[k].rows.append(row) }
                if m == 0 { x = target } else { y = target }
            }
            _ = try roundTrip(x.bytes(), y.bytes())
        }
    }

    @Test func aDifferentBaseIsDetected() throws {
        var g = SeededRandom(seed: 5)
        var counter = 0
        let a = RecordModel.random(&g, sections: 2...4, rows: 1...3, counter: &counter)
        let b = Edit.mixed.apply(to: a, &g, counter: &counter)
        var other = a
        other.offset = 12345
        let cs = differ.diff(
            from: try RecordOutline(bytes: a.bytes()), to: try RecordOutline(bytes: b.bytes()), key: nil)
        #expect(throws: ChangeSetError.self) { try applier.apply(cs.bytes, to: other.bytes()) }
        #expect(throws: ChangeSetError.self) { try applier.apply(cs.bytes, to: nil) }
        do {
            _ = try applier.apply(cs.bytes, to: other.bytes())
        } catch {
            guard case .baseMismatch = error else { Issue.record("expected baseMismatch, got \(error)"); return }
        }
    }

    @Test func applyingADuplicateChangeSetAgainChangesNothing() throws {
        var g = SeededRandom(seed: 6)
        var counter = 0
        let a = RecordModel.random(&g, sections: 2...4, rows: 1...3, counter: &counter)
        let b = Edit.mixed.apply(to: a, &g, counter: &counter)
        let cs = differ.diff(
            from: try RecordOutline(bytes: a.bytes()), to: try RecordOutline(bytes: b.bytes()), key: nil)
        let once = try applier.apply(cs.bytes, to: a.bytes())
        #expect(try applier.apply(cs.bytes, to: once) == b.bytes())
    }

    @Test func corruptedChangeSetsAreRejectedNeverCrash() throws {
        var g = SeededRandom(seed: 11)
        var counter = 0
        var rejected = 0, accepted = 0
        for _ in 0..<150 {
            let a = RecordModel.random(&g, sections: 1...5, rows: 1...6, counter: &counter)
            let b = Edit.mixed.apply(to: a, &g, counter: &counter)
            let cs = differ.diff(
                from: try RecordOutline(bytes: a.bytes()), to: try RecordOutline(bytes: b.bytes()), key: nil)
            for _ in 0..<10 {
                var bytes = cs.bytes
                let i = Int.random(in: 0..<bytes.count, using: &g)
                // Flip digits to other digits mostly, so the JSON stays valid and indexes go wrong.
                if bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                    bytes[i] = 0x30 + UInt8.random(in: 0...9, using: &g)
                } else {
                    bytes[i] = UInt8.random(in: 0...255, using: &g)
                }
                do {
                    let out = try applier.apply(bytes, to: a.bytes())
                    // Accepted only when the target hash still matches, i.e. the result is exactly b.
                    #expect(out == b.bytes())
                    accepted += 1
                } catch {
                    rejected += 1
                }
            }
        }
        #expect(rejected > 500)
        #expect(accepted + rejected == 1500)
    }
}
