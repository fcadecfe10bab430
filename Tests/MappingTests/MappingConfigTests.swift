import Adaptors
import ContentTree
import LayoutJSON
import Mapping
import Testing

func loadConfig(_ yaml: String) -> Result<MappingConfig, MappingConfigError> {
    MappingConfigLoader().load(yaml: yaml, origin: "test.yaml")
}

func config(_ yaml: String) throws -> MappingConfig {
    try loadConfig(yaml).get()
}

func errors(_ yaml: String) -> [Diagnostic] {
    switch loadConfig(yaml) {
    case .success: return []
    case .failure(let e): return e.diagnostics
    }
}

@Suite struct MappingConfigLoaderTests {
    @Test func loadsEveryField() throws {
        let c = try config(
            """
            version: 1
            policy: strict
            defaultRenderer: Cell
            options: { omitContainers: true, emptyMenusShowNoResults: true, emptySlotsShowLoading: true, maxDepth: 64 }
            adaptors:
              COTO_ResultsList: ResultsList
              Grid: { adaptor: ResultsList, groupBy: 'attributes["b"][0]', groupOrder: value }
              Html: { adaptor: Generic, rows: one, idFields: [id] }
              Items: { rows: "field:items" }
            renderers:
              - { renderer: A, types: Record, when: 'count > 1' }
              - { renderer: B, types: [Refinement, RefinementBreadcrumb] }
            supplementary:
              - { kind: header, types: RefinementMenu, field: displayName, renderer: H }
            placeholders:
              - { kind: noResults, renderer: N }
              - { kind: error, types: [ResultsList], renderer: E }
            """)
        #expect(c.policy == .strict)
        #expect(c.defaultRenderer == "Cell")
        #expect(c.options.omitContainers && c.options.emptyMenusShowNoResults && c.options.emptySlotsShowLoading)
        #expect(c.options.maxDepth == 64)
        #expect(c.adaptors["COTO_ResultsList"]?.adaptor.name == "ResultsList")
        #expect(
            c.adaptors["Grid"]?.grouper
                == RowGrouper(path: try FieldPath(parsing: #"attributes["b"][0]"#), order: .value))
        #expect((c.adaptors["Html"]?.adaptor as? GenericAdaptor)?.rows == .one)
        #expect((c.adaptors["Items"]?.adaptor as? GenericAdaptor)?.rows == .field("items"))
        #expect(c.renderers.map(\.renderer) == ["A", "B"])
        #expect(c.renderers[1].types == ["Refinement", "RefinementBreadcrumb"])
        #expect(c.renderers[0].condition?.source == "count > 1")
        #expect(c.renderers[0].location == SourceLocation(line: 11, column: 5))
        #expect(c.supplementary.first?.field.description == "displayName")
        #expect(c.placeholders.map(\.kind) == [.noResults, .error])
        #expect(c.registry().adaptor(for: "COTO_ResultsList").name == "ResultsList")
        #expect(c.registry().adaptor(for: "ContentSlot-Main").name == "Container")
    }

    @Test func unknownFieldsAndWrongTypesAreErrorsWithLocations() {
        let found = errors(
            """
            version: 1
            renderers:
              - renderer: A
                types: Record
                whem: 'x == 1'
            options:
              omitContainers: maybe
            adaptors:
              X: Magic
            colour: blue
            """)
        #expect(found.map(\.code) == ["unknown-field", "wrong-type", "unknown-adaptor", "unknown-field"])
        #expect(found.map(\.path) == ["test.yaml:5:5", "test.yaml:7:19", "test.yaml:9:6", "test.yaml:10:1"])
        #expect(found[0].message.contains("unknown field 'whem'"))
    }

    /// A name one or two edits from a known one is named in the error, at the line of the typo.
    @Test func misspeltNamesAreAnsweredWithTheOneMeant() {
        let found = errors(
            """
            version: 1
            policy: strickt
            options:
              emptySlotShowLoading: true
            adaptors:
              X: ResultList
            renderes:
              - renderer: A
                types: Record
            placeholders:
              - kind: noresults
                renderer: B
            """)
        let meant = found.map {
            ($0.path, $0.message.firstMatch(of: /did you mean '([^']+)'/).map { String($0.output.1) })
        }
        #expect(
            meant.map(\.0) == ["test.yaml:2:9", "test.yaml:4:3", "test.yaml:6:6", "test.yaml:7:1", "test.yaml:11:11"])
        #expect(meant.map(\.1) == ["strict", "emptySlotsShowLoading", "ResultsList", "renderers", "noResults"])
    }

    /// Booleans are YAML 1.1's plain spellings, in any case; a quoted one is a string, and wrong.
    @Test func booleansAreYAMLsPlainSpellings() throws {
        for (text, value) in [
            ("true", true), ("True", true), ("yes", true), ("ON", true), ("false", false), ("No", false),
            ("off", false),
        ] {
            let c = try loadConfig("version: 1\noptions:\n  omitContainers: \(text)\n").get()
            #expect(c.options.omitContainers == value, "\(text)")
        }
        for text in ["'true'", "\"yes\"", "1", "y", "truee", "null"] {
            let found = errors("version: 1\noptions:\n  omitContainers: \(text)\n")
            #expect(found.map(\.code) == ["wrong-type"], "\(text)")
        }
    }

    @Test func conditionErrorsPointIntoTheYAML() {
        let found = errors(
            """
            renderers:
              - renderer: A
                types: Record
                when: 'count >> 1'
            """)
        #expect(found.count == 1)
        #expect(found.first?.code == "condition-syntax")
        #expect(found.first?.path == "test.yaml:4:19")
    }

    @Test func yamlSyntaxErrorsHaveLocations() {
        let found = errors("renderers:\n  - renderer: [unclosed\n")
        #expect(found.first?.code == "yaml-syntax")
        #expect(found.first?.path.hasPrefix("test.yaml:") == true)
        #expect(errors("a: 1\na: 2\n").first?.code == "duplicate-key")
        // Duplicates in a nested mapping: located at the key's second copy (line 4, column 5), naming the first.
        let nested = errors("renderers:\n  - renderer: A\n    types: X\n    types: Y\n")
        #expect(nested.first?.code == "duplicate-key" && nested.first?.path == "test.yaml:4:5", "\(nested)")
        #expect(nested.first?.message.contains("types (first at line 3); keep one") == true, "\(nested)")
        // What to do: a tab in an indentation, and items out of line, are said as such.
        let tab = errors("version: 1\nrenderers:\n\t- renderer: A\n\t  types: Record\n")
        #expect(tab.first?.message.hasSuffix("line 3 is indented with a tab: YAML indents with spaces only") == true)
        let outOfLine = errors("version: 1\nrenderers:\n  - renderer: A\n   types: Record\n")
        #expect(outOfLine.first?.message.contains("check the indentation") == true, "\(outOfLine)")
    }

    /// A config that maps nothing is a warning; a file with no YAML document at all (empty, or only comments) is
    /// an error: `serve` would otherwise start with it silently.
    @Test func anEmptyConfigIsWarnedAboutAndAnEmptyFileRefused() throws {
        let config = try MappingConfigLoader().load(yaml: "version: 1\n", origin: "empty.yaml").get()
        let findings = ConfigChecker().check(config)
        #expect(findings.contains { $0.code == "empty-config" && $0.severity == .warning }, "\(findings)")
        for text in ["", "# only a comment\n", "\n\n"] {
            #expect(errors(text).map(\.code) == ["empty-config"], "\(text.debugDescription)")
        }
        let mapped = try MappingConfigLoader().load(yaml: "defaultRenderer: Cell\n", origin: "x.yaml").get()
        #expect(!ConfigChecker().check(mapped).contains { $0.code == "empty-config" })
    }

    @Test func missingRequiredFields() {
        #expect(errors("renderers:\n  - renderer: A\n").map(\.code) == ["missing-field"])
        #expect(
            errors("supplementary:\n  - { kind: header, types: X, renderer: H }\n").map(\.code) == ["missing-field"])
        #expect(errors("placeholders:\n  - { kind: spinner, renderer: S }\n").map(\.code) == ["wrong-value"])
        #expect(errors("adaptors:\n  X: { adaptor: ResultsList, rows: one }\n").map(\.code) == ["wrong-field"])
    }

    @Test func shippedConfigsLoadAndPassTheChecker() throws {
        import_check: for file in ["config/default.yaml", "config/examples/supermami.yaml"] {
            let c = try MappingConfigLoader().load(yaml: TestFixtures.text(file), origin: file).get()
            let findings = ConfigChecker().check(c).filter { $0.severity == .error }
            #expect(findings.isEmpty, "\(file): \(findings)")
            continue import_check
        }
    }
}
