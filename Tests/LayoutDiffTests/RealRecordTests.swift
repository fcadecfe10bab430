import AttributeCarrying
import Foundation
import LayoutCompiler
import LayoutDiff
import LayoutJSON
import LayoutKit
import LayoutRecord
import Mapping
import MappingFiles
import TestSupport
import Testing

private let defaultCompiler = LayoutCompiler(
    config: try! ConfigFile.load(contents: Fixtures.bytes("config/default.yaml"), path: "config/default.yaml").get())

/// A results-list response for records `first...last` of `total`.
private func resultsPage(first: Int, last: Int, total: Int = 100) -> [UInt8] {
    let records = (first...last).map { #"{"@class":"x.Record","attributes":{"product.repositoryId":["p\#($0)"]}}"# }
    return Array(
        #"{"@type":"PageSlot","contents":[{"@type":"ResultsList","totalNumRecs":\#(total),"recsPerPage":12,"firstRecNum":\#(first),"lastRecNum":\#(last),"records":[\#(records.joined(separator: ","))]}]}"#
            .utf8)
}

/// Re-serialises a response after `edit`, so old and new share one formatting (models are copied byte for byte).
private func edited(_ bytes: [UInt8], _ edit: (inout [String: Any]) -> Void) throws -> [UInt8] {
    var object = try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
    edit(&object)
    return [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
}

@Suite struct RealRecordTests {
    let differ = LayoutDiffer()
    let applier = ChangeSetApplier()

    func outline(_ response: [UInt8]) throws -> RecordOutline {
        try RecordOutline(bytes: try defaultCompiler.compile(response).get().bytes)
    }

    /// The sample page compiled from two inputs is the same layout (only `source` differs); a row's model changed,
    /// or another member, is not.
    @Test func theSameResponseFromAnotherInputIsTheSameLayout() throws {
        let page = Fixtures.bytes("samples/search-page.json")
        let at = { (offset: Int64) in
            try defaultCompiler.compile(page, source: RecordSource(topic: "in", partition: 0, offset: offset)).get()
                .outline
        }
        let (a, b) = (try at(10), try at(11))
        #expect(a.bytes != b.bytes && differ.sameLayout(a, b))
        #expect(differ.diff(from: a, to: b, key: "p").summary.recordMembers == 1)
        let other = try edited(page) { page in page["name"] = "another name" }
        #expect(!differ.sameLayout(a, try outline(other)))
        #expect(
            !differ.sameLayout(try outline(resultsPage(first: 1, last: 3)), try outline(resultsPage(first: 1, last: 4)))
        )
    }

    @Test func editedSamplePageRoundTrips() throws {
        let original = try edited(Fixtures.bytes("samples/search-page.json")) { _ in }
        let changed = try edited(original) { page in
            // Drop two products, move one to the front, change a price: in MainContent[0].contents[2] (the ResultsList).
            var contents = page["contents"] as! [[String: Any]]
            var main = contents[0]["MainContent"] as! [[String: Any]]
            var slot = main[0]["contents"] as! [[String: Any]]
            var list = slot[2]
            var records = list["records"] as! [[String: Any]]
            records.remove(at: 3)
            records.remove(at: 1)
            records.insert(records.removeLast(), at: 0)
            var attributes = records[2]["attributes"] as! [String: Any]
            attributes["product.price"] = ["0.99"]
            records[2]["attributes"] = attributes
            list["records"] = records
            slot[2] = list
            main[0]["contents"] = slot
            contents[0]["MainContent"] = main
            page["contents"] = contents
        }
        let a = try outline(original), b = try outline(changed)
        let cs = differ.diff(from: a, to: b, key: "search")
        #expect(try applier.apply(cs.bytes, to: a.bytes) == b.bytes)
        #expect(
            cs.summary.rowDeletes == 2 && cs.summary.rowMoves == 1 && cs.summary.rowUpdates == 1
                && cs.summary.rowInserts == 0)
        #expect(cs.summary.sectionUpdates == 1 && cs.summary.sectionInserts == 0 && cs.summary.sectionDeletes == 0)
        let schema = try SchemaValidator(schema: Fixtures.bytes("schemas/layout-change-set.schema.json"))
        #expect(schema.validate(cs.bytes).isEmpty)
    }

    /// The search page with its main slot's cartridges edited: `edit` gets the slot's `contents`.
    func mainSlotEdited(_ edit: @escaping (inout [[String: Any]]) -> Void) throws -> (
        a: RecordOutline, b: RecordOutline
    ) {
        let original = try edited(Fixtures.bytes("samples/search-page.json")) { _ in }
        let changed = try edited(original) { page in
            var contents = page["contents"] as! [[String: Any]]
            var main = contents[0]["MainContent"] as! [[String: Any]]
            var slot = main[0]["contents"] as! [[String: Any]]
            edit(&slot)
            main[0]["contents"] = slot
            contents[0]["MainContent"] = main
            page["contents"] = contents
        }
        return (try outline(original), try outline(changed))
    }

    /// Section ids survive sibling edits: a cartridge added above the results is one insert, a removed one one
    /// delete, two swapped one move; no row changes and no section updates (the later sections' new tree paths
    /// ride in `paths`).
    @Test func cartridgeEditsAreOneSectionChange() throws {
        let banner: [String: Any] = [
            "@type": "Banner", "name": "Did you mean",
            "endeca:auditInfo": ["ecr:resourcePath": "content/Shared/Did You Mean", "ecr:innerPath": NSNull()],
        ]
        let cases: [(String, (inout [[String: Any]]) -> Void, (inout ChangeSummary) -> Void)] = [
            (
                "insert", { $0.insert(banner, at: 0) },
                {
                    $0.sectionInserts = 1; $0.sectionPaths = 3
                }
            ),
            (
                "delete", { $0.remove(at: 0) },
                {
                    $0.sectionDeletes = 1; $0.sectionPaths = 2
                }
            ),
            (
                "swap", { $0.swapAt(0, 1) },
                {
                    $0.sectionMoves = 1; $0.sectionPaths = 2
                }
            ),
        ]
        let schema = try SchemaValidator(schema: Fixtures.bytes("schemas/layout-change-set.schema.json"))
        for (name, edit, expect) in cases {
            let (a, b) = try mainSlotEdited(edit)
            let cs = differ.diff(from: a, to: b, key: "search")
            var expected = ChangeSummary()
            expect(&expected)
            // The record's diagnostics (a top-level member) may change with the page; sections are the point here.
            var summary = cs.summary
            summary.recordMembers = 0
            #expect(summary == expected, "\(name): \(String(decoding: cs.bytes, as: UTF8.self))")
            #expect(try applier.apply(cs.bytes, to: a.bytes) == b.bytes)
            #expect(schema.validate(cs.bytes).isEmpty)
        }
    }

    /// The empty record a page's first change set starts from says the version the compiler writes.
    @Test func theEmptyRecordHasTheCompilersVersion() throws {
        let compiled = try outline(Fixtures.bytes("samples/search-page.json"))
        let empty = RecordOutline.empty()
        func version(_ r: RecordOutline) -> Int? {
            let doc = try? JSONReader().read(r.bytes)
            return doc.flatMap { $0.value($0.root, "version").flatMap($0.int) }
        }
        #expect(version(compiled) == RecordOutline.formatVersion && version(empty) == RecordOutline.formatVersion)
    }

    /// A record of another version (an upgrade) is replaced whole, not diffed member by member.
    @Test func aRecordOfAnotherVersionIsReplacedWhole() throws {
        let b = try outline(Fixtures.bytes("samples/search-page.json"))
        var text = String(decoding: b.bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: #"{"version":2,"#, with: #"{"version":1,"#)
        let old = try RecordOutline(bytes: Array(text.utf8))
        let cs = differ.diff(from: old, to: b, key: "search")
        #expect(cs.summary.replacedRecord)
        #expect(try applier.apply(cs.bytes, to: old.bytes) == b.bytes)
    }

    @Test func everySampleAgainstEveryOtherRoundTrips() throws {
        let schema = try SchemaValidator(schema: Fixtures.bytes("schemas/layout-change-set.schema.json"))
        let records = try Fixtures.samples.compactMap { try? defaultCompiler.compile(Fixtures.bytes($0)).get().bytes }
            .map { try RecordOutline(bytes: $0) }
        #expect(records.count >= 4)
        for a in [nil] + records {
            for b in records {
                let cs = differ.diff(from: a, to: b, key: nil)
                #expect(try applier.apply(cs.bytes, to: a?.bytes) == b.bytes)
                #expect(schema.validate(cs.bytes).isEmpty, "\(schema.validate(cs.bytes).prefix(3))")
            }
        }
    }

    @Test func corpusPageWithATenthOfRowsChangedRoundTrips() throws {
        guard let dir = Fixtures.corpusDirectory else { return }  // no ../shared in a user's clone
        let config = try ConfigFile.load(
            contents: Fixtures.bytes("config/examples/supermami.yaml"), path: "config/examples/supermami.yaml"
        ).get()
        let compiler = LayoutCompiler(config: config)
        let page = try edited(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/supermami-1.json")))) { _ in }
        let a = try RecordOutline(bytes: try compiler.compile(page).get().bytes)
        let (bytes, edited) = RowEditor.changeEveryTenthRow(a)
        let b = try RecordOutline(bytes: bytes)
        let cs = differ.diff(from: a, to: b, key: "p")
        #expect(edited >= 12)
        #expect(
            cs.summary.replacedLists == 0 && cs.summary.rowUpdates == edited
                && cs.summary.rowInserts + cs.summary.rowDeletes + cs.summary.rowMoves == 0)
        #expect(try applier.apply(cs.bytes, to: a.bytes) == b.bytes)
    }

    @Test func resultsListCarriesItsPagingWindow() throws {
        func window(_ record: [UInt8]) throws -> String? {
            let doc = try JSONReader().read(record)
            guard let s = doc.value(doc.root, "sections").flatMap({ doc.element($0, 1) }),
                let a = doc.value(s, "attributes"),
                let w = doc.value(a, "pagingWindow")
            else { return nil }
            return String(decoding: doc.raw(w), as: UTF8.self)
        }
        let page1 = try outline(resultsPage(first: 1, last: 12))
        #expect(try window(page1.bytes) == #"{"first":1,"last":12}"#)
        // The next page continues the window (infinite scrolling).
        let page2 = try outline(resultsPage(first: 13, last: 24))
        let carried2 = try #require(
            AttributeCarrier(registry: defaultCompiler.registry).carry(into: page2, from: page1))
        #expect(try window(carried2.bytes) == #"{"first":1,"last":24}"#)
        // Reloading a page inside the window keeps it.
        let again = try outline(resultsPage(first: 1, last: 12))
        let carried3 = try #require(
            AttributeCarrier(registry: defaultCompiler.registry).carry(
                into: again, from: carried2))
        #expect(try window(carried3.bytes) == #"{"first":1,"last":24}"#)
        // A jump starts a new window: nothing to carry.
        #expect(
            AttributeCarrier(registry: defaultCompiler.registry).carry(
                into: try outline(resultsPage(first: 49, last: 60)), from: carried2) == nil)
        // Everything but the carried attribute is untouched.
        let plain = try JSONReader().read(page2.bytes), carried = try JSONReader().read(carried2.bytes)
        #expect(plain.nodes.count == carried.nodes.count)
        // The carried record's outline (moved, not read back) is the one its bytes read into.
        #expect(try RecordOutline(bytes: carried2.bytes) == carried2)
        #expect(try RecordOutline(bytes: carried3.bytes) == carried3)
    }
}

/// Changes every tenth row's model in a record (a price-like edit inside the model's bytes).
enum RowEditor {
    static func changeEveryTenthRow(_ r: RecordOutline) -> (bytes: [UInt8], edited: Int) {
        let doc = try! JSONReader().read(r.bytes)
        var out: [UInt8] = []
        var cursor = 0
        var n = 0, edited = 0
        let sections = doc.value(doc.root, "sections").map { Array(doc.elements($0)) } ?? []
        for section in sections {
            for row in doc.value(section, "rows").map({ Array(doc.elements($0)) }) ?? [] {
                defer { n += 1 }
                guard n % 10 == 0, let model = doc.value(row, "model") else { continue }
                // Insert a member at the start of the model object.
                let at = doc.nodes[model].range.lowerBound + 1
                out.append(contentsOf: doc.bytes[cursor..<at])
                out.append(contentsOf: Array(#""edited":true"#.utf8))
                if doc.nodes[model].count > 0 { out.append(UInt8(ascii: ",")) }
                cursor = at
                edited += 1
            }
        }
        out.append(contentsOf: doc.bytes[cursor...])
        return (out, edited)
    }
}
