import ContentTree
import Foundation
import LayoutCompiler
import LayoutJSON
import LayoutRecord
import Mapping
import TestSupport
import Testing

/// `RowExplanation` walks the chain `resolveRow` walks: for every row of the samples (and the corpus, when present),
/// under the shipped configs, it names the renderer the compiled record has; its levels, conditions and runner-up
/// say why.
@Suite struct ExplainTests {
    /// Every row of `response` compiled by `compiler`, each with its explanation.
    static func explained(_ compiler: LayoutCompiler, _ response: [UInt8]) throws -> [(
        LayoutRow, LayoutSection, RowExplanation
    )] {
        let record = compiler.layout(ContentTree(document: try JSONReader().read(response)))
        return record.sections.flatMap { section in
            section.rows.enumerated().map { n, row in
                let context = ConditionContext(
                    document: record.document, model: row.model, row: n, section: section.index,
                    sectionType: section.type)
                return (row, section, RowExplanation(context, adaptor: section.adaptor, resolver: compiler.resolver))
            }
        }
    }

    @Test func theChosenRendererIsTheRecordsForEveryRow() throws {
        var rows = 0
        let inputs =
            [
                (
                    "config/default.yaml",
                    ["search-page", "grouped-results", "empty-results", "cartridge-error"].map {
                        Fixtures.bytes("samples/\($0).json")
                    }
                )
            ] + [("config/examples/supermami.yaml", Fixtures.corpusFiles.map { Fixtures.bytes(absolute: $0) })]
        for (config, responses) in inputs {
            let c = try compiler(file: config)
            for response in responses {
                for (row, section, e) in try Self.explained(c, response) {
                    #expect(e.resolution.renderer == row.renderer, "\(config) \(section.id) \(row.id)")
                    if case .resolved = e.resolution {
                        #expect(row.fallbacks.first == e.runnerUp, "\(config) \(section.id) \(row.id)")
                    }
                    rows += 1
                }
            }
        }
        #expect(rows >= 30)
    }

    @Test func itNamesEveryLevelConditionValueAndTheRunnerUp() throws {
        let c = try compiler(file: "config/default.yaml")
        let all = try Self.explained(c, Fixtures.bytes("samples/search-page.json"))
        let (_, _, e) = try #require(all.first { $0.0.id == "prod01000" })
        #expect(e.modelClass == "com.endeca.infront.cartridge.model.Record")
        #expect(e.levels.map(\.type) == ["Record", "com.endeca.infront.cartridge.model.Record", "ResultsList"])
        let sale = try #require(e.levels[0].candidates.first { $0.renderer == "SaleProductCell" })
        #expect(sale.holds && sale.readings.first?.value == #""true""#)
        #expect(e.levels[0].candidates.first { $0.renderer == "ProductCell" }?.holds == false)
        #expect(e.resolution == .resolved(renderer: "SaleProductCell", type: "Record"))
        #expect(e.runnerUp == "GenericContentCell")
    }

    @Test func anAmbiguousRowIsExplainedAsSuch() throws {
        let c = try compiler(
            """
            defaultRenderer: Cell
            renderers:
              - { renderer: A, types: Record, when: 'exists attributes' }
              - { renderer: B, types: Record, when: 'exists records' or 'exists attributes' }
              - { renderer: C, types: ResultsList }
            """.replacingOccurrences(of: "' or '", with: " or "))
        let (row, _, e) = try #require(
            try Self.explained(c, Fixtures.bytes("samples/search-page.json")).first {
                $0.0.id == "prod01000"
            })
        #expect(row.renderer == nil)
        #expect(e.resolution == .ambiguous(type: "Record", renderers: ["A", "B"]))
        #expect(e.runnerUp == "C")
    }
}
