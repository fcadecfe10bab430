import ContentTree
import LayoutCompiler
import LayoutJSON
import Mapping
import TestSupport
import Testing

/// A page whose rows sit at every level of the chain: records (class `…Record`), refinements (class
/// `com.example.Refinement` in a RefinementMenu) and a custom cartridge's generic rows (no class).
private let page = Array(
    #"""
    {"@type":"Page","main":[
      {"@type":"ResultsList","totalNumRecs":2,"records":[
        {"@class":"com.endeca.infront.cartridge.model.Record","attributes":{"product.id":["p1"],"sku.price":["5"]},
         "detailsAction":{"contentPath":"/detail","recordState":"/p1/_/R-1"}},
        {"@class":"com.endeca.infront.cartridge.model.Record","attributes":{"product.id":["p2"]},
         "detailsAction":{"contentPath":"/detail","recordState":"/p2/_/R-2"}}]},
      {"@type":"RefinementMenu","name":"Brand","dimensionName":"product.brand","refinements":[
        {"@class":"com.example.Refinement","label":"COTO","count":3,"navigationState":"/_/N-1"}]},
      {"@type":"PromoStrip","items":[{"id":"promo-1","link":{"url":"/sale"},"campaign":{"id":"c9"}}]}]}
    """#.utf8)

private let config = """
    defaultRenderer: Cell
    adaptors:
      PromoStrip: { adaptor: Generic, rows: field:items }
    events:
      - { event: onSelect, types: Record, action: true }
      - { event: onSelect, types: com.example.Refinement, handler: refine, fields: [label, navigationState] }
      - { event: onSelect, types: PromoStrip, handler: openPromo, fields: { url: link.url, campaign: campaign.id, missing: nope } }
      - { event: onAppear, types: ResultsList, handler: impression, fields: { id: 'attributes["product.id"][0]' } }
      - { event: onAppear, handler: seen }

    """

@Suite struct EventTests {
    @Test func eachLevelOfTheChainGivesItsRowsTheirEvents() throws {
        let (r, compiled) = try compileChecked(try compiler(config), page)
        #expect(compiled.diagnostics.filter { $0.severity != .info }.isEmpty)
        // Records: the class short name level (onSelect passes the row's action), the section type (onAppear).
        let record = "sections[1].rows[0]"
        #expect(r.json(record + ".events.onSelect") == r.json(record + ".action").map { #"{"action":\#($0)}"# })
        #expect(r.text(record + ".action.kind") == "record")
        #expect(r.json(record + ".events.onAppear") == #"{"handler":"impression","fields":{"id":"p1"}}"#)
        #expect(r.json("sections[1].rows[1].events.onAppear.fields") == #"{"id":"p2"}"#)
        // Refinements: the full class name level; fields listed by path are named by it.
        #expect(
            r.json("sections[2].rows[0].events.onSelect")
                == #"{"handler":"refine","fields":{"label":"COTO","navigationState":"/_/N-1"}}"#)
        // Neither Refinement nor RefinementMenu maps onAppear: the mapping without types (every row) does.
        #expect(r.json("sections[2].rows[0].events.onAppear") == #"{"handler":"seen"}"#)
        // A custom cartridge's rows: the section type level; values copied byte-for-byte, a missing one is null.
        #expect(
            r.json("sections[3].rows[0].events.onSelect")
                == #"{"handler":"openPromo","fields":{"url":"/sale","campaign":"c9","missing":null}}"#)
        // Events come in the config's order of event names.
        let keys = r.at("sections[3].rows[0].events").map { node in r.members(node).map { r.string($0.0) } }
        #expect(keys == ["onSelect", "onAppear"])
    }

    @Test func theFirstLevelWithAMatchDecidesAndConditionsSeeTheRow() throws {
        let yaml = """
            defaultRenderer: Cell
            events:
              - { event: onSelect, types: Record, handler: sale, when: 'attributes["sku.price"][0] < 10' }
              - { event: onSelect, types: ResultsList, handler: listDefault }
              - { event: onSelect, types: ResultsList, handler: firstRow, when: 'row == 0' }
              - { event: onSelect, handler: everywhere }

            """
        let (r, compiled) = try compileChecked(try compiler(yaml), page)
        // Row 0: the class level's condition holds, so that level decides (the section level is never asked).
        #expect(r.text("sections[1].rows[0].events.onSelect.handler") == "sale")
        // Row 1 has no price: the class level has no match; at the section level only the unconditional holds.
        #expect(r.text("sections[1].rows[1].events.onSelect.handler") == "listDefault")
        #expect(r.text("sections[2].rows[0].events.onSelect.handler") == "everywhere")
        // Row 0 of the results never reached the ambiguous section level, so nothing is reported.
        #expect(!compiled.diagnostics.contains { $0.code == "ambiguous" })
    }

    @Test func anAmbiguousEventIsLeftOutAndReportedWithoutTouchingTheRenderer() throws {
        let yaml = """
            renderers:
              - { renderer: ProductCell, types: Record }
            events:
              - { event: onSelect, types: Record, handler: a }
              - { event: onSelect, types: Record, handler: b, when: 'row == 1' }
              - { event: onAppear, types: Record, handler: seen }

            """
        let (r, compiled) = try compileChecked(try compiler(yaml), page)
        #expect(r.text("sections[1].rows[0].events.onSelect.handler") == "a")
        #expect(r.at("sections[1].rows[1].events.onSelect") == nil)
        #expect(r.text("sections[1].rows[1].events.onAppear.handler") == "seen")
        #expect(r.text("sections[1].rows[1].renderer") == "ProductCell")
        let ambiguous = compiled.diagnostics.filter { $0.code == "ambiguous" }
        #expect(ambiguous.count == 1)
        #expect(ambiguous.first?.severity == .error)
        #expect(ambiguous.first?.path == "main[0]")
        #expect(ambiguous.first?.message.contains("row 1 (id") == true)
        #expect(
            ambiguous.first?.message.contains("onSelect event matches 2 mappings for Record (line 4, line 5)") == true)
        // Under the strict policy the ambiguity rejects the response, like an ambiguous renderer.
        guard case .failure(let failure) = try compiler("policy: strict\ndefaultRenderer: Cell\n" + yaml).compile(page)
        else {
            Issue.record("strict policy accepted an ambiguous event")
            return
        }
        #expect(failure.diagnostics.map(\.code) == ["ambiguous"])
    }

    @Test func rowsWithoutEventsAreWrittenAsBefore() throws {
        let plain = try compiler("defaultRenderer: Cell\n").compile(page).get()
        #expect(!String(decoding: plain.bytes, as: UTF8.self).contains(#""events""#))
        // An event for a type nothing on the page has changes nothing either.
        let other = try compiler("defaultRenderer: Cell\nevents: [{ event: onSelect, types: Nothing }]\n")
            .compile(page).get()
        #expect(other.bytes == plain.bytes)
    }

    @Test func groupedRowsGetTheirEvents() throws {
        let yaml = """
            defaultRenderer: Cell
            adaptors:
              ResultsList: { adaptor: ResultsList, groupBy: 'attributes["product.id"][0]' }
            events:
              - { event: onSelect, types: Record, fields: { id: 'attributes["product.id"][0]' } }

            """
        let (r, _) = try compileChecked(try compiler(yaml), page)
        #expect(r.text("sections[1].id")?.hasSuffix("#group=p1") == true)
        #expect(r.json("sections[1].rows[0].events.onSelect") == #"{"fields":{"id":"p1"}}"#)
        #expect(r.json("sections[2].rows[0].events.onSelect") == #"{"fields":{"id":"p2"}}"#)
    }

    @Test func configMistakesAreLoadErrorsWithTheirLine() throws {
        let cases: [(yaml: String, code: String, line: Int)] = [
            ("events:\n  - { types: Record, handler: x }\n", "missing-field", 2),
            ("events:\n  - { event: onSelect, fields: 3 }\n", "wrong-type", 2),
            ("events:\n  - event: onSelect\n    fields: { a: label, a: name }\n", "duplicate-key", 3),
            ("events:\n  - event: onSelect\n    fields: [label, label]\n", "wrong-value", 3),
            ("events:\n  - { event: onSelect, action: maybe }\n", "wrong-type", 2),
            ("events:\n  - { event: onSelect, fields: ['a[' ] }\n", "field-path-syntax", 2),
            ("events:\n  - { event: onSelect, renderer: X }\n", "unknown-field", 2),
        ]
        for c in cases {
            guard case .failure(let error) = MappingConfigLoader().load(yaml: c.yaml, origin: "e.yaml") else {
                Issue.record("loaded: \(c.yaml)")
                continue
            }
            #expect(error.diagnostics.first?.code == c.code, "\(c.yaml)")
            #expect(error.diagnostics.first?.path.hasPrefix("e.yaml:\(c.line):") == true, "\(c.yaml)")
        }
    }

    @Test func checkFindsOverlappingAndDuplicateEventMappings() throws {
        let config = try MappingConfigLoader().load(
            yaml: """
                defaultRenderer: Cell
                events:
                  - { event: onSelect, types: Record, handler: cheap, when: 'price < 10' }
                  - { event: onSelect, types: Record, handler: sale, when: 'price > 5' }
                  - { event: onAppear, types: Record, handler: a, when: 'price > 5' }
                  - { event: onSelect, handler: one }
                  - { event: onSelect, handler: two }

                """, origin: "e.yaml"
        ).get()
        let findings = ConfigChecker().check(config)
        let overlap = findings.filter { $0.code == "overlapping-conditions" }
        #expect(overlap.count == 1)
        #expect(overlap.first?.message.contains("onSelect event sale and onSelect event cheap") == true)
        #expect(overlap.first?.message.contains(#"{"price":6}"#) == true)
        let duplicate = findings.filter { $0.code == "duplicate-mapping" }
        #expect(duplicate.count == 1)
        #expect(duplicate.first?.path == "e.yaml:7:5")
        // Different events never compete: onAppear's condition overlaps onSelect's but is not reported.
        #expect(!findings.contains { $0.message.contains("onAppear") })
    }

    /// README's worked example, run: its events block added to config/default.yaml on the sample search page.
    @Test func readmeExampleIsWhatCompileWrites() throws {
        let readme = Fixtures.text("docs/mapping-config.md")
        let start = try #require(readme.range(of: "**Events** (DTCollectionViewManager"))
        let yamlStart = try #require(readme.range(of: "```yaml\n", range: start.upperBound..<readme.endIndex))
        let yamlEnd = try #require(readme.range(of: "```", range: yamlStart.upperBound..<readme.endIndex))
        let yaml = Fixtures.text("config/default.yaml") + "\n" + readme[yamlStart.upperBound..<yamlEnd.lowerBound]
        let (r, _) = try compileChecked(try compiler(yaml), Fixtures.bytes("samples/search-page.json"))
        let sections = try #require(r.count("sections"))
        var shown: [String: String] = [:]
        for n in 0..<sections {
            for id in ["Cocinero", "prod01000"] where shown[id] == nil && r.text("sections[\(n)].rows[0].id") == id {
                shown[id] = r.json("sections[\(n)].rows[0].events")
            }
        }
        let cocinero = try #require(shown["Cocinero"])
        #expect(readme.contains(#""events":"# + cocinero + "}"))
        let product = try #require(shown["prod01000"])
        #expect(product.hasPrefix(#"{"onSelect":{"action":{"kind":"record","target":"/product/"#))
        #expect(product.hasSuffix(#""onAppear":{"handler":"impression","fields":{"product":"prod01000"}}}"#))
        #expect(readme.contains(#""onAppear":{"handler":"impression","fields":{"product":"prod01000"}}}}"#))
    }
}
