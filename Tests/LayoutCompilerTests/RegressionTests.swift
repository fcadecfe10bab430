import LayoutCompiler
import LayoutJSON
import TestSupport
import Testing

/// Bugs found against the seed documents, each pinned by the case that showed it.
@Suite struct RegressionTests {
    /// Two unconditional header mappings: the header is ambiguous, so it has neither a renderer nor a model.
    @Test func anAmbiguousHeaderHasNoModel() throws {
        let c = try compiler(
            """
            defaultRenderer: Cell
            supplementary:
              - { kind: header, types: RefinementMenu, field: displayName, renderer: A }
              - { kind: header, types: RefinementMenu, field: dimensionName, renderer: B }
            """)
        let (r, compiled) = try compileChecked(
            c, Array(#"{"@type":"RefinementMenu","displayName":"Brand","dimensionName":"b","refinements":[]}"#.utf8))
        #expect(r.json("sections[0].header.renderer") == "null")
        #expect(r.json("sections[0].header.model") == "null")
        #expect(compiled.diagnostics.contains { $0.code == "ambiguous" && $0.message.contains("header view") })
    }

    /// With `omitContainers`, a section's parent is its nearest ancestor that is kept (or none).
    @Test func omittedContainersAreNotNamedAsParents() throws {
        let c = try compiler("defaultRenderer: Cell\noptions: { omitContainers: true }\n")
        let page = #"""
            {"@type":"PageSlot","contents":[{"@type":"ContentSlot","contents":[
              {"@type":"RefinementMenu","refinements":[{"label":"x"}],"contents":[{"@type":"SearchBox"}]}]}]}
            """#
        let (r, _) = try compileChecked(c, Array(page.utf8))
        #expect(r.count("sections") == 2)
        #expect(r.text("sections[0].type") == "RefinementMenu" && r.at("sections[0].parent") == nil)
        #expect(r.text("sections[1].type") == "SearchBox")
        #expect(r.text("sections[1].parent") == r.text("sections[0].id"))
    }

    /// An unmapped placeholder: the message names each type once and does not blame a missing defaultRenderer
    /// (placeholders never fall back to it).
    @Test func anUnmappedPlaceholderIsReportedTruthfully() throws {
        let c = try compiler("defaultRenderer: Cell\noptions: { builtInPlaceholders: false }\n")
        let (_, compiled) = try compileChecked(c, Array(#"{"@type":"ResultsList","records":[],"totalNumRecs":0}"#.utf8))
        let unmapped = try #require(compiled.diagnostics.first { $0.code == "unmapped" })
        #expect(unmapped.message.contains("tried ResultsList, *;"), "\(unmapped.message)")
        #expect(!unmapped.message.contains("no defaultRenderer"), "\(unmapped.message)")
    }

    /// A repeated `@type`: the first is used and a warning names every value (other parsers keep the last).
    @Test func aRepeatedTypeKeyIsAWarning() throws {
        let c = try compiler("defaultRenderer: Cell\n")
        let (r, compiled) = try compileChecked(
            c, Array(#"{"@type":"ResultsList","records":[],"@type":"SearchBox"}"#.utf8))
        #expect(r.text("sections[0].type") == "ResultsList")
        let warning = try #require(compiled.diagnostics.first { $0.code == "duplicate-type" })
        #expect(warning.severity == .warning)
        #expect(warning.message.contains(#""ResultsList""#) && warning.message.contains(#""SearchBox""#))
        // One @type: no warning.
        let (_, single) = try compileChecked(c, Array(#"{"@type":"ResultsList","records":[]}"#.utf8))
        #expect(!single.diagnostics.contains { $0.code == "duplicate-type" })
        // Behind an escaped key too.
        let (_, escaped) = try compileChecked(c, Array(#"{"@type":"ResultsList","records":[],"\u0040type":"X"}"#.utf8))
        #expect(escaped.diagnostics.contains { $0.code == "duplicate-type" })
    }
}
