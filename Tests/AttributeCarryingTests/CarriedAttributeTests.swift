import Adaptors
import AttributeCarrying
import LayoutCompiler
import LayoutDiff
import LayoutJSON
import LayoutRecord
import Mapping
import Testing

/// A custom carousel cartridge (generic rows) showing some products and its position in a feed.
private func carousel(ids: [String], page: Int, total: Int = 40) -> [UInt8] {
    let items = ids.map { #"{"id":"\#($0)"}"# }.joined(separator: ",")
    let list = ids.map { #""\#($0)""# }.joined(separator: ",")
    return Array(
        #"{"@type":"PageSlot","contents":[{"@type":"FeedCarousel","name":"feed","items":[\#(items)],"shown":[\#(list)],"feedPage":\#(page),"totalItems":\#(total)}]}"#
            .utf8)
}

private let carouselConfig = """
    defaultRenderer: Cell
    adaptors:
      FeedCarousel:
        adaptor: Generic
        rows: field:items
        attributes: { shownSoFar: shown, deepestPage: feedPage, firstTotal: totalItems, page: feedPage }
        carry: { shownSoFar: union, deepestPage: max, firstTotal: keep }

    """

@Suite struct CarriedAttributeTests {
    private func layout(_ config: String, _ response: [UInt8]) throws -> (RecordOutline, LayoutCompiler) {
        let compiler = LayoutCompiler(config: try MappingConfigLoader().load(yaml: config).get())
        return (try RecordOutline(bytes: try compiler.compile(response).get().bytes), compiler)
    }

    private func attributes(_ bytes: [UInt8], section: Int = 1) throws -> String? {
        let doc = try JSONReader().read(bytes)
        return doc.value(doc.root, "sections").flatMap { doc.element($0, section) }.flatMap {
            doc.value($0, "attributes")
        }
        .map { String(decoding: doc.raw($0), as: UTF8.self) }
    }

    @Test func aConfigDeclaresWhatACustomCartridgeCarries() throws {
        let (first, compiler) = try layout(carouselConfig, carousel(ids: ["a", "b"], page: 1))
        #expect(
            try attributes(first.bytes)
                == #"{"shownSoFar":["a","b"],"deepestPage":1,"firstTotal":40,"page":1}"#)
        let carrier = AttributeCarrier(for: compiler)
        // The next page: union of what was shown, the deepest page, the first total kept; `page` is not carried.
        let (second, _) = try layout(carouselConfig, carousel(ids: ["b", "c"], page: 2, total: 42))
        let carried = try #require(carrier.carry(into: second, from: first))
        #expect(
            try attributes(carried.bytes) == #"{"shownSoFar":["a","b","c"],"deepestPage":2,"firstTotal":40,"page":2}"#)
        // Going back to page 1 keeps the deepest page reached.
        let (back, _) = try layout(carouselConfig, carousel(ids: ["a"], page: 1, total: 42))
        let carriedBack = try #require(carrier.carry(into: back, from: carried))
        #expect(
            try attributes(carriedBack.bytes)
                == #"{"shownSoFar":["a","b","c"],"deepestPage":2,"firstTotal":40,"page":1}"#)
        // Without the config's carry nothing is carried: the generic adaptor carries nothing of its own.
        #expect(AttributeCarrier(registry: compiler.registry).carry(into: second, from: first) == nil)
    }

    /// A page's next layout: carried from the one before, then diffed from it; the first has no base.
    @Test func aPageStepCarriesThenDiffs() throws {
        let (first, compiler) = try layout(carouselConfig, carousel(ids: ["a", "b"], page: 1))
        let (second, _) = try layout(carouselConfig, carousel(ids: ["b", "c"], page: 2, total: 42))
        let step = PageStep(for: compiler)
        let opening = step.next(after: nil, record: first, key: "feed")
        #expect(opening.layout == first && opening.changeSet.base == nil)
        #expect(opening.changeSet.target.hash == first.hash)
        let next = step.next(after: first, record: second, key: "feed")
        #expect(
            try attributes(next.record) == #"{"shownSoFar":["a","b","c"],"deepestPage":2,"firstTotal":40,"page":2}"#)
        #expect(next.changeSet.base?.hash == first.hash && next.changeSet.target.hash == next.layout.hash)
        #expect(next.changeSet.summary.rowInserts == 1 && next.changeSet.summary.rowDeletes == 1)
        // Without a compiler nothing is carried: the record is published as compiled.
        #expect(PageStep().next(after: first, record: second, key: "feed").layout == second)
    }

    @Test func aConfigCanTurnOffAnAdaptorsOwnCarry() throws {
        func results(_ first: Int, _ last: Int) -> [UInt8] {
            let records = (first...last).map {
                #"{"@class":"x.Record","attributes":{"product.repositoryId":["p\#($0)"]}}"#
            }
            return Array(
                #"{"@type":"PageSlot","contents":[{"@type":"ResultsList","totalNumRecs":100,"recsPerPage":12,"firstRecNum":\#(first),"lastRecNum":\#(last),"records":[\#(records.joined(separator: ","))]}]}"#
                    .utf8)
        }
        let off =
            "defaultRenderer: Cell\nadaptors:\n  ResultsList: { adaptor: ResultsList, carry: { pagingWindow: none } }\n"
        let (page1, compiler) = try layout(off, results(1, 12))
        let (page2, _) = try layout(off, results(13, 24))
        let declared = compiler.config.carriedAttributes()
        #expect(
            AttributeCarrier(registry: compiler.registry, declared: declared).carry(into: page2, from: page1) == nil)
        // The adaptor's own rule still applies without the override.
        let carried = try #require(AttributeCarrier(registry: compiler.registry).carry(into: page2, from: page1))
        #expect(try attributes(carried.bytes)?.contains(#""pagingWindow":{"first":1,"last":24}"#) == true)
    }

    @Test func mergeRules() throws {
        func merge(_ rule: AttributeMerge, _ old: String, _ new: String) throws -> String? {
            let prev = try JSONReader().read(Array(#"{"a":\#(old)}"#.utf8))
            let cur = try JSONReader().read(Array(#"{"a":\#(new)}"#.utf8))
            return rule.carry(named: "a").merge(prev, prev.value(prev.root, "a")!, cur, cur.root)
                .map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(try merge(.keep, #""x""#, #""y""#) == #""x""#)
        #expect(try merge(.none, #""x""#, #""y""#) == nil)
        #expect(try merge(.window, #"{"first":1,"last":12}"#, #"{"first":13,"last":24}"#) == #"{"first":1,"last":24}"#)
        #expect(try merge(.window, #"{"first":1,"last":24}"#, #"{"first":13,"last":24}"#) == #"{"first":1,"last":24}"#)
        #expect(try merge(.window, #"{"first":1,"last":12}"#, #"{"first":49,"last":60}"#) == nil)
        #expect(try merge(.window, #"{"first":1,"last":9223372036854775807}"#, #"{"first":1,"last":2}"#) != nil)
        #expect(try merge(.window, #"{"first":1,"last":"12"}"#, #"{"first":13,"last":24}"#) == nil)
        #expect(try merge(.union, #"[1,"1",{"k":2}]"#, #"["1",3,{"k":2}]"#) == #"[1,"1",{"k":2},3]"#)
        #expect(try merge(.union, "[1]", "2") == nil)
        #expect(try merge(.max, "3", "2") == "3")
        #expect(try merge(.max, "3", "4") == nil)
        #expect(try merge(.min, "3", "4") == "3")
        #expect(try merge(.max, #""9""#, "4") == nil)
        #expect(try merge(.max, "1e400", "4") != nil)
        // A union past the limit starts over (the new value as computed).
        let big = "[" + (0..<AttributeMerge.unionLimit).map(String.init).joined(separator: ",") + "]"
        #expect(try merge(.union, big, "[-1]") == nil)
        #expect(try merge(.union, big, "[0]") == big)
    }

    @Test func configMistakesAreLoadErrors() {
        let cases: [(String, String)] = [
            ("adaptors:\n  X: { adaptor: Generic, carry: { a: sum } }\n", "wrong-value"),
            ("adaptors:\n  X: { adaptor: Generic, carry: [a] }\n", "wrong-type"),
            ("adaptors:\n  X: { adaptor: Generic, attributes: { a: 'b[' } }\n", "field-path-syntax"),
        ]
        for (yaml, code) in cases {
            guard case .failure(let error) = MappingConfigLoader().load(yaml: yaml) else {
                Issue.record("loaded: \(yaml)")
                continue
            }
            #expect(error.diagnostics.map(\.code) == [code], "\(yaml)")
        }
    }
}
