import Adaptors
import ContentTree
import LayoutJSON
import Mapping
import Testing

private let models = try! JSONReader().read(
    Array(
        #"""
        [{"@class":"com.endeca.infront.cartridge.model.Refinement","label":"A","count":3},
         {"@class":"com.endeca.infront.cartridge.model.Record","attributes":{"vegan":["true"]}},
         {"@class":"com.endeca.infront.cartridge.model.Record","attributes":{"vegan":["false"]}},
         {"@class":"com.other.Thing"},
         {"label":"no class"}]
        """#.utf8))

private func context(_ n: Int, type: String = "RefinementMenu", row: Int = 0) -> ConditionContext {
    ConditionContext(document: models, model: models.element(0, n)!, row: row, section: 0, sectionType: type)
}

@Suite struct RendererResolverTests {
    @Test func exactlyOneMatchResolves() throws {
        let r = RendererResolver(config: try config("renderers:\n  - { renderer: R, types: Refinement }\n"))
        #expect(r.resolveRow(context(0), adaptor: "RefinementMenu") == .resolved(renderer: "R", type: "Refinement"))
    }

    @Test func fallbackChainShortThenFullThenSectionTypeThenAdaptorThenDefault() throws {
        let full = RendererResolver(config: try config("renderers:\n  - { renderer: F, types: com.other.Thing }\n"))
        #expect(full.resolveRow(context(3), adaptor: "X") == .resolved(renderer: "F", type: "com.other.Thing"))
        let section = RendererResolver(config: try config("renderers:\n  - { renderer: S, types: Custom_Menu }\n"))
        #expect(
            section.resolveRow(context(4, type: "Custom_Menu"), adaptor: "Generic")
                == .resolved(renderer: "S", type: "Custom_Menu"))
        let adaptor = RendererResolver(config: try config("renderers:\n  - { renderer: G, types: Generic }\n"))
        #expect(
            adaptor.resolveRow(context(4, type: "Custom_Menu"), adaptor: "Generic")
                == .resolved(renderer: "G", type: "Generic"))
        let short = RendererResolver(
            config: try config(
                "renderers:\n  - { renderer: S, types: Thing }\n  - { renderer: F, types: com.other.Thing }\n"))
        #expect(short.resolveRow(context(3), adaptor: "X") == .resolved(renderer: "S", type: "Thing"))
        let fallback = RendererResolver(config: try config("defaultRenderer: D\n"))
        #expect(fallback.resolveRow(context(3), adaptor: "X") == .defaulted(renderer: "D"))
        let none = RendererResolver(config: try config("renderers: []\n"))
        #expect(
            none.resolveRow(context(3, type: "T"), adaptor: "X")
                == .unmapped(tried: ["Thing", "com.other.Thing", "T", "X"]))
    }

    @Test func conditionsChooseAndFallThroughWhenNoneMatch() throws {
        let c = try config(
            """
            renderers:
              - { renderer: Vegan, types: Record, when: 'attributes["vegan"][0] == "true"' }
              - { renderer: Section, types: ResultsList }
            """)
        let r = RendererResolver(config: c)
        #expect(
            r.resolveRow(context(1, type: "ResultsList"), adaptor: "ResultsList")
                == .resolved(renderer: "Vegan", type: "Record"))
        #expect(
            r.resolveRow(context(2, type: "ResultsList"), adaptor: "ResultsList")
                == .resolved(renderer: "Section", type: "ResultsList"))
    }

    @Test func moreThanOneMatchIsAmbiguousNotFirstWins() throws {
        let c = try config(
            """
            renderers:
              - { renderer: A, types: Record, when: 'exists attributes' }
              - { renderer: B, types: [Refinement, Record], when: 'row == 0' }
            """)
        let r = RendererResolver(config: c)
        #expect(
            r.resolveRow(context(1, type: "ResultsList"), adaptor: "ResultsList")
                == .ambiguous(type: "Record", renderers: ["A", "B"]))
        #expect(
            r.resolveRow(context(1, type: "ResultsList", row: 1), adaptor: "ResultsList")
                == .resolved(renderer: "A", type: "Record"))
        // Families: B serves Refinement too.
        #expect(r.resolveRow(context(0), adaptor: "RefinementMenu") == .resolved(renderer: "B", type: "Refinement"))
    }

    @Test func supplementaryAndPlaceholders() throws {
        let c = try config(
            """
            supplementary:
              - { kind: header, types: RefinementMenu, field: label, renderer: H }
              - { kind: badge, types: RefinementMenu, field: count, renderer: Badge, when: 'count > 5' }
            placeholders:
              - { kind: noResults, renderer: AnyEmpty }
              - { kind: noResults, types: RefinementMenu, renderer: MenuEmpty }
              - { kind: error, types: [X], renderer: E1 }
              - { kind: error, types: [X], renderer: E2 }
            """)
        let r = RendererResolver(config: c)
        let header = try #require(r.resolveSupplementary(kind: "header", item: context(0), adaptor: "RefinementMenu"))
        #expect(header.resolution == .resolved(renderer: "H", type: "RefinementMenu"))
        #expect(models.string(header.model) == "A")
        #expect(r.resolveSupplementary(kind: "badge", item: context(0), adaptor: "RefinementMenu") == nil)
        #expect(r.resolveSupplementary(kind: "header", item: context(0, type: "Other"), adaptor: "Other") == nil)
        #expect(
            r.resolvePlaceholder(.noResults, item: context(0), adaptor: "RefinementMenu")
                == .resolved(renderer: "MenuEmpty", type: "RefinementMenu"))
        #expect(
            r.resolvePlaceholder(.noResults, item: context(0, type: "ResultsList"), adaptor: "ResultsList")
                == .resolved(renderer: "AnyEmpty", type: "*"))
        #expect(
            r.resolvePlaceholder(.error, item: context(0, type: "X"), adaptor: "Generic")
                == .ambiguous(type: "X", renderers: ["E1", "E2"]))
        #expect(
            r.resolvePlaceholder(.loading, item: context(0), adaptor: "Generic")
                == .defaulted(renderer: "LoadingPlaceholder"))
        #expect(r.supplementaryKinds == ["header", "badge"])
    }
}

@Suite struct ConfigCheckerTests {
    private func findings(_ yaml: String) throws -> [String] {
        ConfigChecker().check(try config(yaml)).filter { $0.severity == .error }.map { "\($0.code)@\($0.path)" }
    }

    @Test func duplicateUnconditionalMappings() throws {
        #expect(
            try findings(
                """
                renderers:
                  - { renderer: A, types: Record }
                  - { renderer: B, types: [Record, Refinement] }
                """) == ["duplicate-mapping@test.yaml:3:5"])
    }

    @Test func mappingsThatCanNeverBeChosen() throws {
        #expect(
            try findings(
                """
                renderers:
                  - { renderer: A, types: Record, when: 'false' }
                  - { renderer: B, types: Record, when: 'x == 1 and x == 2' }
                  - { renderer: C, types: Record, when: 'x in ["a"] and x != "a"' }
                  - { renderer: D, types: Record, when: 'x == 1 and x == "1"' }
                """) == [
                    "unreachable-mapping@test.yaml:2:5", "unreachable-mapping@test.yaml:3:5",
                    "unreachable-mapping@test.yaml:4:5",
                ])
        // Numbers: a range with nothing in it never holds; one with a single number, or open, does.
        #expect(
            try findings(
                """
                renderers:
                  - { renderer: A, types: Record, when: 'price < 5 and price >= 5' }
                  - { renderer: B, types: Record, when: '5 < price and price < 3' }
                  - { renderer: C, types: Record, when: 'price == 7 and (price <= 6.5 and stock > 0)' }
                  - { renderer: D, types: Record, when: 'price <= 5 and price >= 5 and size > 1' }
                  - { renderer: E, types: Record, when: 'price < 5 and size >= 5 and size > 2 and label == "x"' }
                """) == [
                    "unreachable-mapping@test.yaml:2:5", "unreachable-mapping@test.yaml:3:5",
                    "unreachable-mapping@test.yaml:4:5",
                ])
        #expect(
            try findings(
                """
                renderers:
                  - { renderer: Any, types: Record }
                  - { renderer: Vegan, types: Record, when: 'vegan == "true"' }
                """) == ["unreachable-mapping@test.yaml:3:5"])
    }

    @Test func conditionsThatCannotBeToldApart() throws {
        #expect(
            try findings(
                """
                renderers:
                  - { renderer: A, types: Record, when: 'a == 1 and b > 2' }
                  - { renderer: B, types: Record, when: '2 < b and 1 == a' }
                  - { renderer: C, types: Record, when: 'a == 3' }
                supplementary:
                  - { kind: header, types: M, field: x, renderer: H1 }
                  - { kind: header, types: M, field: y, renderer: H2 }
                """) == ["indistinguishable-conditions@test.yaml:3:5", "duplicate-mapping@test.yaml:7:5"])
    }

    /// An overlap's finding says how to fix it, and the condition it suggests, written into the config, does.
    @Test func anOverlapSuggestsTheConditionThatEndsIt() throws {
        let yaml = """
            defaultRenderer: D
            renderers:
              - { renderer: Sale, types: Record, when: 'price > 5' }
              - { renderer: Cheap, types: Record, when: 'price < 10' }
            """
        let found = ConfigChecker().check(try config(yaml)).filter { $0.code == "overlapping-conditions" }
        #expect(found.count == 1)
        let message = try #require(found.first?.message)
        let suggested = try #require(
            message.firstMatch(of: /write renderer Cheap's condition as '([^']+)'/)?.output.1, "\(message)")
        #expect(suggested == "(price < 10) and not (price > 5)")
        let fixed = yaml.replacingOccurrences(of: "when: 'price < 10'", with: "when: '\(suggested)'")
        #expect(ConfigChecker().check(try config(fixed)).filter { $0.severity == .error }.isEmpty)
    }

    /// Conditional mappings that compete for a type must never both hold: an overlap is an error with a witness,
    /// for rows, supplementary views and placeholders alike; what cannot be decided is a warning.
    @Test func overlappingConditionsAreErrorsWithAWitness() throws {
        let c = try config(
            """
            defaultRenderer: D
            renderers:
              - { renderer: Cheap, types: Record, when: 'price < 10' }
              - { renderer: Sale, types: Record, when: 'price > 5' }
              - { renderer: Always, types: Refinement, when: 'true' }
              - { renderer: First, types: Refinement, when: 'row == 0' }
              - { renderer: Under, types: Offer, when: 'price < listPrice' }
              - { renderer: Over, types: Offer, when: 'price >= listPrice' }
            supplementary:
              - { kind: header, types: M, field: x, renderer: H1, when: 'exists x' }
              - { kind: header, types: M, field: y, renderer: H2, when: 'y == 1' }
            placeholders:
              - { kind: noResults, types: ResultsList, renderer: P1, when: 'totalNumRecs == 0' }
              - { kind: noResults, types: ResultsList, renderer: P2, when: 'totalNumRecs in [0, 1]' }
            """)
        let found = ConfigChecker().check(c).filter { $0.severity != .info }
        #expect(
            found.map { "\($0.code)@\($0.path)" } == [
                "overlapping-conditions@test.yaml:4:5", "overlapping-conditions@test.yaml:6:5",
                "undecided-overlap@test.yaml:8:5", "overlapping-conditions@test.yaml:11:5",
                "overlapping-conditions@test.yaml:14:5",
            ])
        #expect(found[0].message.contains(#"when the model is {"price":6}"#))
        #expect(found[1].message.contains("at row 0"))
        #expect(found[2].severity == .warning)
        #expect(found[3].message.contains(#"{"x":0,"y":1}"#) && found[4].message.contains(#"{"totalNumRecs":0}"#))
    }

    /// A misspelt type is an error at the name itself, in every list that names types.
    @Test func aMisspeltTypeIsFoundWhereItIsWritten() throws {
        let c = try config(
            """
            supplementary:
              - { kind: header, types: [RefinementMenu, RefinmentMenu], field: x, renderer: H }
            placeholders:
              - kind: noResults
                types: ResultList
                renderer: P
            events:
              - { event: onSelect, types: [Recod] }
            """)
        let found = ConfigChecker().check(c).filter { $0.code == DiagnosticCode.unknownType.rawValue }
        #expect(found.map(\.path) == ["test.yaml:2:45", "test.yaml:5:12", "test.yaml:8:32"])
        #expect(found.map(\.severity) == [.error, .error, .error])
        #expect(
            found.compactMap { $0.message.firstMatch(of: /did you mean '([^']+)'/).map { String($0.output.1) } } == [
                "RefinementMenu", "ResultsList", "Record",
            ])
    }

    /// A placeholder mapping the options never show is reported at the mapping; without the built-in placeholder
    /// renderers, a kind the responses can show that no mapping draws is reported too.
    @Test func placeholdersThatCannotBeDrawnAreReported() throws {
        let placeholderCodes = Set([DiagnosticCode.placeholderNeverShown, .placeholderNotDrawn].map(\.rawValue))
        let off = try config(
            """
            options:
              builtInPlaceholders: false
            placeholders:
              - { kind: loading, renderer: Spinner }
              - { kind: noResults, types: RefinementMenu, renderer: EmptyMenu }
              - { kind: noResults, types: ResultsList, renderer: NoHits }
            """)
        let found = ConfigChecker().check(off).filter { placeholderCodes.contains($0.code) }
        #expect(
            found.map { "\($0.code)@\($0.path)" } == [
                "placeholder-never-shown@test.yaml:4:5", "placeholder-never-shown@test.yaml:5:5",
                "placeholder-not-drawn@test.yaml",
            ])
        #expect(found.map(\.severity) == [.warning, .warning, .warning])
        #expect(found[0].message.contains("options.emptySlotsShowLoading: true"), "\(found[0].message)")
        #expect(found[1].message.contains("options.emptyMenusShowNoResults: true"), "\(found[1].message)")
        #expect(found[2].message.contains("shows the error placeholder"), "\(found[2].message)")
        let on = try config(
            """
            options:
              emptySlotsShowLoading: true
              emptyMenusShowNoResults: true
            placeholders:
              - { kind: loading, renderer: Spinner }
              - { kind: noResults, types: RefinementMenu, renderer: EmptyMenu }
            """)
        #expect(ConfigChecker().check(on).filter { placeholderCodes.contains($0.code) }.isEmpty)
    }

    @Test func aCleanConfigHasNoErrors() throws {
        #expect(
            try findings(
                """
                defaultRenderer: D
                renderers:
                  - { renderer: A, types: Record, when: 'onSale == "true"' }
                  - { renderer: B, types: Record, when: 'onSale != "true"' }
                """
            ).isEmpty)
    }
}
