import LayoutCompiler
import LayoutJSON
import LayoutRecord
import TestSupport
import Testing

private let base = """
    defaultRenderer: Cell
    renderers:
      - { renderer: ProductCell, types: Record }
    placeholders:
      - { kind: noResults, renderer: Empty }
      - { kind: error, renderer: Oops }
      - { kind: loading, renderer: Spinner }

    """

@Suite struct PlaceholderTests {
    @Test func emptyResultsListShowsNoResults() throws {
        let (r, _) = try compileChecked(
            try compiler(base), Array(#"{"@type":"ResultsList","records":[],"totalNumRecs":0}"#.utf8))
        #expect(r.text("sections[0].placeholder.kind") == "noResults")
        #expect(r.text("sections[0].placeholder.renderer") == "Empty")
        #expect(r.flag("sections[0].visible") == true)
        #expect(r.count("sections[0].rows") == 0)
    }

    @Test func emptyMenuShowsNoResultsOnlyWhenConfigured() throws {
        let menu = Array(#"{"@type":"RefinementMenu","refinements":[]}"#.utf8)
        let (off, _) = try compileChecked(try compiler(base), menu)
        #expect(off.at("sections[0].placeholder") == nil)
        #expect(off.flag("sections[0].visible") == false)
        let (on, _) = try compileChecked(try compiler(base + "options: { emptyMenusShowNoResults: true }\n"), menu)
        #expect(on.text("sections[0].placeholder.kind") == "noResults")
    }

    @Test func cartridgeErrorGivesAnErrorPlaceholderAndTheRestCompiles() throws {
        let (r, _) = try compileChecked(
            try compiler(base),
            Array(
                #"""
                {"@type":"Page","a":[{"@type":"NeticelS_CategoryFilterPrice","PriceItem":[],"@error":"property: dimensionId should not be null"},
                                     {"@type":"ResultsList","records":[{"@class":"x.Record","attributes":{}}]}]}
                """#.utf8))
        #expect(r.text("sections[1].placeholder.kind") == "error")
        #expect(r.text("sections[1].placeholder.renderer") == "Oops")
        #expect(r.text("sections[1].placeholder.message") == "property: dimensionId should not be null")
        #expect(r.text("sections[2].rows[0].renderer") == "ProductCell")
        #expect(r.text("diagnostics[0].code") == "cartridge-error")
        #expect(r.text("diagnostics[0].severity") == "warning")
        #expect(r.text("diagnostics[0].path") == "a[0]")
    }

    /// `@error` is found however its key is spelled (the reader flags objects with the plain key, or any escaped key).
    @Test(arguments: [#""@error""#, #""\u0040error""#, #""@\u0065rror""#])
    func cartridgeErrorKeyWithEscapes(key: String) throws {
        let (r, _) = try compileChecked(
            try compiler(base),
            Array(
                #"""
                {"@type":"Page","a":[{"@type":"X",\#(key):"boom"},{"@type":"Y","@errors":"no"},{"@type":"Z","@eRror":"no"}]}
                """#.utf8))
        #expect(r.text("sections[1].placeholder.kind") == "error")
        #expect(r.text("sections[1].placeholder.message") == "boom")
        #expect(r.at("sections[2].placeholder") == nil)
        #expect(r.at("sections[3].placeholder") == nil)
        #expect(r.count("diagnostics") == 1)
    }

    @Test(arguments: [#""records":"soon""#, #""records":{"a":1}"#, #""records":7"#])
    func unreadableRowsGiveAnErrorPlaceholder(field: String) throws {
        let (r, _) = try compileChecked(try compiler(base), Array("{\"@type\":\"ResultsList\",\(field)}".utf8))
        #expect(r.text("sections[0].placeholder.kind") == "error")
        #expect(r.text("sections[0].placeholder.message")?.hasPrefix("records is a") == true)
        #expect(r.text("diagnostics[0].code") == "rows-unreadable")
        #expect(r.text("diagnostics[0].severity") == "error")
    }

    @Test func nullRowsAreEmptyNotBroken() throws {
        let (r, _) = try compileChecked(
            try compiler(base), Array(#"{"@type":"RefinementMenu","refinements":null}"#.utf8))
        #expect(r.count("diagnostics") == 0)
        #expect(r.count("sections[0].rows") == 0)
    }

    @Test func deferredSlotShowsLoadingWhenConfigured() throws {
        let slot = Array(
            #"{"@type":"ContentSlot-Main","contents":[],"contentPaths":["/content/Shared/Results List"]}"#.utf8)
        let (off, _) = try compileChecked(try compiler(base), slot)
        #expect(off.at("sections[0].placeholder") == nil)
        #expect(off.flag("sections[0].visible") == false)
        let (on, _) = try compileChecked(try compiler(base + "options: { emptySlotsShowLoading: true }\n"), slot)
        #expect(on.text("sections[0].placeholder.kind") == "loading")
        #expect(on.text("sections[0].placeholder.renderer") == "Spinner")
        #expect(on.flag("sections[0].visible") == true)
    }

    @Test func unmappedPlaceholderIsAnErrorWithoutBuiltIns() throws {
        let (r, _) = try compileChecked(
            try compiler("defaultRenderer: C\noptions: { builtInPlaceholders: false }\n"),
            Array(#"{"@type":"ResultsList","records":[]}"#.utf8))
        #expect(r.at("sections[0].placeholder.renderer").map { r.kind($0) } == .null)
        #expect(r.text("diagnostics[0].code") == "unmapped")
    }

    /// A config that maps no placeholders still gets renderers for them: the built-in ones every kit registers.
    @Test func placeholdersFallBackToBuiltInRenderers() throws {
        let c = try compiler("defaultRenderer: C\noptions: { emptySlotsShowLoading: true }\n")
        let page = #"""
            {"@type":"PageSlot","contents":[{"@type":"ResultsList","records":[]},
              {"@type":"PriceSlider","@error":"no dimension"},{"@type":"ContentSlot","contentPaths":["/x"]}]}
            """#
        let (r, compiled) = try compileChecked(c, Array(page.utf8))
        #expect(
            (1...3).map { r.text("sections[\($0)].placeholder.renderer") } == [
                "NoResultsPlaceholder", "ErrorPlaceholder", "LoadingPlaceholder",
            ])
        #expect(!compiled.diagnostics.contains { $0.code == "unmapped" })
        // A mapping still wins over the built-in one.
        let mapped = try compiler("defaultRenderer: C\nplaceholders: [{ kind: noResults, renderer: Empty }]\n")
        let (m, _) = try compileChecked(mapped, Array(#"{"@type":"ResultsList","records":[]}"#.utf8))
        #expect(m.text("sections[0].placeholder.renderer") == "Empty")
    }
}

@Suite struct PolicyTests {
    let ambiguous = """
        renderers:
          - { renderer: A, types: Record }
          - { renderer: B, types: Record, when: 'row == 0' }

        """
    let response = Array(#"{"@type":"ResultsList","records":[{"@class":"x.Record"},{"@class":"x.Record"}]}"#.utf8)

    @Test func lenientPublishesWithDiagnostics() throws {
        let (r, _) = try compileChecked(try compiler(ambiguous), response)
        #expect(r.at("sections[0].rows[0].renderer").map { r.kind($0) } == .null)
        #expect(r.text("sections[0].rows[1].renderer") == "A")
        #expect(r.text("diagnostics[0].code") == "ambiguous")
        #expect(r.text("diagnostics[0].message")?.contains("A, B") == true)
    }

    @Test func strictRejectsAnyErrorDiagnostic() throws {
        let result = try compiler(ambiguous + "policy: strict\n").compile(response)
        guard case .failure(let failure) = result else {
            Issue.record("strict policy accepted an ambiguous row")
            return
        }
        #expect(failure.code == .strictPolicy)
        #expect(failure.diagnostics.map(\.code) == ["ambiguous"])
    }

    @Test func strictAcceptsWarnings() throws {
        let strict = try compiler(
            "policy: strict\ndefaultRenderer: C\nplaceholders:\n  - { kind: error, renderer: E }\n")
        let compiled = try strict.compile(Array(#"{"@type":"X","@error":"boom"}"#.utf8)).get()
        #expect(compiled.record.diagnostics.map(\.severity) == [.warning])
    }

    @Test func unmappedRowsAreErrorsWithoutADefault() throws {
        let (r, _) = try compileChecked(try compiler("renderers: []\n"), response)
        #expect(r.text("diagnostics[0].code") == "unmapped")
        #expect(r.text("diagnostics[0].message")?.contains("tried Record, x.Record, ResultsList") == true)
    }

    @Test func duplicateRowIdsAreFlagged() throws {
        let (r, _) = try compileChecked(
            try compiler("defaultRenderer: C\n"),
            Array(#"{"@type":"RefinementMenu","refinements":[{"label":"A"},{"label":"A"},{"label":"B"}]}"#.utf8))
        #expect(r.text("diagnostics[0].code") == "duplicate-row-id")
        #expect(r.text("diagnostics[0].message")?.hasSuffix(": A") == true)
    }

    /// Small sections compare ids pairwise, larger ones hash them: both report each repeat once, in row order.
    @Test(arguments: [6, 12, 13, 40])
    func duplicateRowIdsAreFlaggedAtEverySectionSize(rows: Int) throws {
        let labels = (0..<rows).map { "L\($0 % (rows - 3))" }  // the last 3 rows repeat the first 3
        let refinements = labels.map { #"{"label":"\#($0)"}"# }.joined(separator: ",")
        let (r, _) = try compileChecked(
            try compiler("defaultRenderer: C\n"),
            Array(#"{"@type":"RefinementMenu","refinements":[\#(refinements)]}"#.utf8))
        #expect(r.text("diagnostics[0].code") == "duplicate-row-id")
        #expect(r.text("diagnostics[0].message")?.hasSuffix(": L0, L1, L2") == true)
        #expect(r.text("diagnostics[1].code") == nil)
    }
}

@Suite struct RejectionTests {
    @Test(arguments: [
        ("{\"a\":", CompileFailure.Code.invalidJSON, 5 as Int?),
        ("[{\"@type\":\"A\"}]", .notAssemblerResponse, nil),
        ("\"text\"", .notAssemblerResponse, nil),
        ("{\"records\":[]}", .notAssemblerResponse, nil),
        ("{\"@type\":7}", .notAssemblerResponse, nil),
        ("{} trailing", .invalidJSON, 3),
    ])
    func badInputGetsACodeAndWhere(text: String, code: CompileFailure.Code, offset: Int?) throws {
        let result = try compiler("defaultRenderer: C\n").compile(Array(text.utf8))
        guard case .failure(let failure) = result else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(failure.code == code)
        #expect(failure.offset == offset)
        #expect(!failure.message.isEmpty)
    }

    /// A record `compile` wrote, fed back in, fails as a layout record: it is not compiled again from the content
    /// items its rows' models carry. A change set likewise; a response with `version` and `sections` beside its
    /// root `@type` is still a response.
    @Test func aLayoutRecordOrChangeSetIsNotTakenAsAResponse() throws {
        let record = try Samples.record("search-page", source: RecordSource(file: "search-page.json"))
        guard case .failure(let f) = Samples.compiler.compile(record) else {
            Issue.record("a layout record compiled as a response")
            return
        }
        #expect(f.code == .layoutRecord)
        #expect(f.message.hasPrefix("this is a layout record (written by layout-worker), not an assembler response"))
        #expect(f.message.contains(#"(its source: {"file":"search-page.json"})"#), "\(f.message)")
        let changeSet = #"{"version":2,"kind":"layout-change-set","base":null,"target":{},"ops":[]}"#
        guard case .failure(let g) = Samples.compiler.compile(Array(changeSet.utf8)) else {
            Issue.record("a change set compiled as a response")
            return
        }
        #expect(g.code == .layoutRecord)
        #expect(g.message.hasPrefix("this is a layout change set"))
        let response = #"{"@type":"ResultsList","version":2,"sections":[],"records":[]}"#
        #expect((try? Samples.compiler.compile(Array(response.utf8)).get()) != nil)
    }

    @Test func tooLargeAndTooDeep() throws {
        let small = LayoutCompiler(config: try compiler("defaultRenderer: C\n").config, maxInputBytes: 10)
        guard case .failure(let f) = small.compile(Array(#"{"@type":"ResultsList"}"#.utf8)) else {
            Issue.record("accepted"); return
        }
        #expect(f.code == .tooLarge)
        let shallow = try compiler("defaultRenderer: C\noptions: { maxDepth: 3 }\n")
        guard case .failure(let g) = shallow.compile(Array(#"{"@type":"A","b":[[{}]]}"#.utf8)) else {
            Issue.record("accepted"); return
        }
        #expect(g.code == .invalidJSON)
        #expect(g.message == "nesting deeper than 3 levels")
    }
}
