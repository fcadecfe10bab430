import Foundation
import LayoutJSON
import TestSupport
import Testing

/// Runs the built `layout-worker` binary (or `binary`) in `directory` (default: the repository).
private func run(_ arguments: [String], stdin: String? = nil, binary: String? = nil, directory: URL = Fixtures.root)
    throws -> (status: Int32, out: String, err: String)
{
    try runCLI(arguments, stdin: stdin, binary: binary, directory: directory)
}

/// The SHA-256 of `data` in hex, by coreutils' `sha256sum`.
private func sha256(_ data: Data) throws -> String {
    String(String(decoding: try piped(data, through: "sha256sum").output, as: UTF8.self).prefix(64))
}

@Suite(.serialized) struct CommandLineTests {
    @Test func inputsOverTheLimitAreRefusedBeforeParsingInEveryCommand() throws {
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("lw-big-\(UUID().uuidString).json")
        // Unparseable on purpose: refusing it must not depend on parsing it.
        try Data(repeating: UInt8(ascii: "["), count: 20_000).write(to: big)
        defer { try? FileManager.default.removeItem(at: big) }
        let limit = ["--max-input-bytes", "10000"]
        for args in [
            ["compile"] + limit + [big.path], ["check", "config/default.yaml", big.path] + limit,
            ["diff", "-", big.path] + limit, ["apply", "-", big.path] + limit,
            ["produce", "--brokers", "127.0.0.1:1", "--topic", "t", big.path] + limit,
        ] {
            let r = try run(args)
            #expect(r.status != 0, "\(args)")
            #expect(
                (r.out + r.err).contains("too-large: 20000 bytes, larger than the limit of 10000 bytes"),
                "\(args): \(r.out) \(r.err)")
            #expect(!(r.out + r.err).contains("invalid-json"), "\(args) parsed the input")
        }
        // produce takes by default what serve takes (--max-message-bytes), no more.
        let help = try run(["produce", "--help"])
        let compact = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(compact.contains("(default: \(8 * 1024 * 1024))"), "\(help.out)")
        // NDJSON on stdin: the long line is refused, the lines around it still compile.
        let line = #"{"@type":"ResultsList","records":[]}"#
        let r = try run(
            ["compile"] + limit, stdin: line + "\n" + String(repeating: "[", count: 30_000) + "\n" + line + "\n")
        #expect(r.status == 1)
        #expect(r.out.split(separator: "\n").count == 2)
        #expect(r.err.contains("stdin:2: too-large: a line of more than 10000 bytes"))
        #expect(r.err.contains("1 of 3 inputs failed"))
    }

    @Test func compileWritesOneSchemaValidRecordPerSample() throws {
        let result = try run(["compile"] + Fixtures.samples)
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == Fixtures.samples.count)
        for line in lines { #expect(SchemaValidator.layoutRecord.validate(Array(line.utf8)).isEmpty) }
        #expect(lines[0].contains(#""source":{"file":"samples/cartridge-error.json"}"#))
    }

    /// A shell glob's worth of files, options before and between them: one record per file, in order (the list is
    /// taken apart from ArgumentParser, whose cost grows with the square of its length).
    @Test func compileAndCheckTakeThousandsOfFiles() throws {
        let files = (0..<5_000).map { $0 % 1_000 == 1 ? "samples/search-page.json" : "samples/empty-results.json" }
        let compiled = try run(
            ["compile", files[0], "--max-input-bytes", "1000000", "--config", "config/default.yaml"] + files.dropFirst()
        )
        #expect(compiled.status == 0, "\(compiled.err.prefix(2000))")
        let sources = compiled.out.split(separator: "\n").map { $0.contains("search-page") ? "s" : "e" }
        #expect(sources == files.map { $0.contains("search-page") ? "s" : "e" })
        let checked = try run(["check", "config/default.yaml"] + files)
        #expect(checked.status == 0, "\(checked.err.prefix(2000))")
        #expect(checked.out.components(separatedBy: "samples/search-page.json:").count - 1 == 5)
    }

    /// Compiled on four threads, files and stdin lines come out exactly as on one: the same records in the same
    /// order on stdout, the same failures in the same order on stderr, the same exit status.
    @Test func parallelCompileWritesWhatOneThreadWrites() throws {
        let samples = [
            "samples/search-page.json", "samples/empty-results.json", "samples/grouped-results.json",
            "samples/cartridge-error.json", "samples/does-not-exist.json",
        ]
        // Uneven sizes in a scrambled order, so threads finish out of order.
        let files = (0..<150).map { samples[($0 * 7 + $0 / 11) % samples.count] }
        let config = ["--config", "config/default.yaml"]
        let missing = files.filter { $0 == samples[4] }.count
        let serial = try run(["compile", "--jobs", "1"] + config + files)
        let parallel = try run(["compile", "--jobs", "4"] + config + files)
        #expect(serial.status == 1 && parallel.status == 1)
        #expect(missing > 0 && serial.out.split(separator: "\n").count == 150 - missing, "\(serial.err.prefix(500))")
        #expect(parallel.out == serial.out)
        #expect(parallel.err == serial.err)
        #expect(serial.err.hasSuffix("\(missing) of 150 inputs failed\n"))

        // A response's line breaks are all between tokens: joining its lines makes it one NDJSON line.
        let lines = try (0..<40).map { n in
            n % 9 == 4
                ? "{\"@type\": oops \(n)}"
                : try String(contentsOfFile: Fixtures.path(samples[n % 4]), encoding: .utf8)
                    .replacingOccurrences(of: "\n", with: " ")
        }.joined(separator: "\n")
        for pretty in [[], ["--pretty"]] {
            let one = try run(["compile", "--jobs", "1"] + pretty + config, stdin: lines)
            let four = try run(["compile", "--jobs", "4"] + pretty + config, stdin: lines)
            #expect(one.status == 1 && four.status == 1)
            #expect(four.out == one.out && four.err == one.err)
            #expect(one.err.hasSuffix("4 of 40 inputs failed\n"), "\(one.err.suffix(300))")
        }
        let zero = try run(["compile", "--jobs", "0", "samples/empty-results.json"])
        #expect(zero.status == 64 && zero.err.contains("--jobs must be 1 or more"), "\(zero.err)")
    }

    @Test func compileReadsNDJSONAndReportsBadLinesButCompilesTheRest() throws {
        let result = try run(
            ["compile", "--config", "config/default.yaml"],
            stdin: """
                {"@type":"ResultsList","records":[]}
                {"@type": oops}

                [1,2]
                {"@type":"SearchBox"}
                """)
        #expect(result.status == 1)
        #expect(result.out.split(separator: "\n").count == 2)
        #expect(result.err.contains("stdin:2: invalid-json: unexpected 'o', expected a value (byte 10)"))
        #expect(result.err.contains("stdin:4: not-assembler-response: the root is an array, not an object"))
        #expect(result.err.contains("2 of 4 inputs failed"))
    }

    @Test func prettyOutputParses() throws {
        let result = try run(["compile", "--pretty", "samples/empty-results.json"])
        #expect(result.status == 0)
        #expect(result.out.contains("\n  \"sections\": ["))
        #expect((try? JSONReader().read(Array(result.out.utf8))) != nil)
    }

    @Test func compileFailsCleanlyOnMissingConfigAndFiles() throws {
        let missing = try run(["compile", "--config", "nope.yaml", "samples/empty-results.json"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("nope.yaml: cannot read the config file"))
        let noFile = try run(["compile", "samples/does-not-exist.json", "samples/empty-results.json"])
        #expect(noFile.status == 1)
        #expect(noFile.out.split(separator: "\n").count == 1)
    }

    @Test func checkPassesShippedConfigsAndReportsRows() throws {
        let ok = try run(["check", "config/default.yaml", "samples/search-page.json"])
        #expect(ok.status == 0, "\(ok.out)")
        #expect(ok.out.contains("row 0 id=prod01000 → SaleProductCell"))
        #expect(ok.out.hasSuffix("ok\n"))
    }

    @Test func checkFailsOnConfigErrorsWithLocations() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lw-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.yaml")
        try """
        renderers:
          - { renderer: A, types: Record }
          - { renderer: B, types: Record }
          - { renderer: C, types: Refinement, when: 'x == 1 and x == 2' }
        """.write(to: bad, atomically: true, encoding: .utf8)
        let result = try run(["check", bad.path])
        #expect(result.status == 1)
        #expect(result.out.contains("error [duplicate-mapping] \(bad.path):3:5"))
        #expect(result.out.contains("error [unreachable-mapping] \(bad.path):4:5"))
        let syntax = dir.appendingPathComponent("syntax.yaml")
        try "renderers:\n  - { renderer: A, types: Record, colour: red }\n".write(
            to: syntax, atomically: true, encoding: .utf8)
        let s = try run(["check", syntax.path])
        #expect(s.status == 2, "a config that does not load: 2, as every command answers it")
        #expect(s.out.contains("error [unknown-field] \(syntax.path):2:35: unknown field 'colour'"))
    }

    /// A response with custom `Tiles` and `Banners` items whose rows are in `items` and `slides`.
    static let tilesResponse = """
        {"@type":"Page","contents":[{"@type":"Tiles","name":"t","items":[
          {"@class":"com.shop.Tile","title":"a","attributes":{"tile.kind":["big"]}},
          {"@class":"com.shop.Tile","title":"b","attributes":{"tile.kind":["small"]}}]},
          {"@type":"Banners","slides":[{"@class":"com.shop.Slide","image":"x.png"}]}]}
        """

    @Test func checkCatchesEachTypoWithASuggestion() throws {
        let typos = """
            version: 1
            defaultRenderer: Cell
            adaptors:
              Tiles: { adaptor: Generic, rows: "field:items" }
              Banners: { adaptor: Generic, rows: "field:slide" }
            renderers:
              - { renderer: RefinementCell, types: Refinment }
              - { renderer: BigTile, types: Tile, when: 'attributes["tile.knd"][0] == "big"' }
              - { renderer: TitledTile, types: Tiles, when: 'titel == "a"' }
            """
        try inDirectory(["typos.yaml": typos, "tiles.json": Self.tilesResponse]) { dir in
            let r = try run(["check", "typos.yaml", "tiles.json"], directory: dir)
            #expect(r.status == 1, "a type one typo from a known one fails the check: \(r.out)")
            for expected in [
                "error [unknown-type] typos.yaml:7:40: renderer RefinementCell names type 'Refinment'",
                "did you mean 'Refinement'?",
                "warning [rows-field-missing] typos.yaml:5:12: rows field 'slide' is in none of the 1 Banners items",
                "did you mean 'slides'?",
                "error [unknown-attribute] typos.yaml:8:45:", "reads attribute 'tile.knd'",
                "did you mean 'tile.kind'?", "reads 'titel', which no Tiles row's model has", "did you mean 'title'?",
                "warning [never-matched] typos.yaml:7:5: renderer RefinementCell",
            ] {
                #expect(r.out.contains(expected), "\(expected) in \(r.out)")
            }
            let strict = try run(["check", "--fail-on", "warning", "typos.yaml", "tiles.json"], directory: dir)
            #expect(strict.status == 1 && strict.err.contains("at warning or worse"), "\(strict.err)")
        }
        let syntax = """
            renderers:
              - { renderer: A, types: Record, when: 'name startswith "x"' }
              - { renderer: B, types: Refinement, when: 'label = "x"' }
              - { renderer: C, types: SearchBreadcrumb, when: 'label && x' }
            adaptors:
              Tiles: { adaptor: Generic, rows: "field: items" }
            """
        try inDirectory(["syntax.yaml": syntax]) { dir in
            let r = try run(["check", "syntax.yaml"], directory: dir)
            #expect(r.status == 2)
            for expected in [
                "unexpected 'startswith'; did you mean 'startsWith'?", "unexpected '='; did you mean '=='?",
                "unexpected '&&'; did you mean 'and'?", "not 'field: items'; did you mean 'field:items'?",
            ] {
                #expect(r.out.contains(expected), "\(expected) in \(r.out)")
            }
        }
    }

    @Test func checkFormatJSONFollowsItsSchema() throws {
        let schema = try SchemaValidator(schema: Fixtures.bytes("schemas/check-report.schema.json"))
        let ok = try run(["check", "--format", "json", "config/default.yaml", "samples/search-page.json"])
        #expect(ok.status == 0 && ok.err.isEmpty, "\(ok.err)")
        #expect(schema.validate(Array(ok.out.utf8)).isEmpty, "\(schema.validate(Array(ok.out.utf8)))")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(ok.out.utf8)) as? [String: Any])
        #expect(doc["ok"] as? Bool == true)
        let response = try #require((doc["responses"] as? [[String: Any]])?.first)
        let rows = (response["sections"] as? [[String: Any]] ?? []).flatMap { $0["rows"] as? [[String: Any]] ?? [] }
        #expect(rows.contains { $0["id"] as? String == "prod01000" && $0["renderer"] as? String == "SaleProductCell" })
        // A response's own data problems: marked, counted apart, failing only with --fail-on-data.
        let data = try run(["check", "--format", "json", "config/default.yaml", "samples/cartridge-error.json"])
        #expect(data.status == 0 && schema.validate(Array(data.out.utf8)).isEmpty, "\(data.out)")
        #expect(data.out.contains(#""ok" : true"#) && data.out.contains(#""data" : true"#), "\(data.out)")
        let bad = try run([
            "check", "--format", "json", "--fail-on-data", "config/default.yaml", "samples/cartridge-error.json",
        ])
        #expect(bad.status == 1 && schema.validate(Array(bad.out.utf8)).isEmpty)
        #expect(bad.out.contains(#""ok" : false"#) && bad.out.contains(#""code" : "rows-unreadable""#), "\(bad.out)")
        // Errors: ok false, exit 1, every config finding with its line and column.
        try inDirectory(["overlap.yaml": Self.overlapping, "broken.yaml": "renderers: [\n"]) { dir in
            let overlap = try run(["check", "--format", "json", "overlap.yaml"], directory: dir)
            #expect(overlap.status == 1 && schema.validate(Array(overlap.out.utf8)).isEmpty)
            #expect(overlap.out.contains(#""code" : "overlapping-conditions""#) && overlap.out.contains(#""line" : 3"#))
            let broken = try run(["check", "--format", "json", "broken.yaml"], directory: dir)
            #expect(broken.status == 2 && schema.validate(Array(broken.out.utf8)).isEmpty, "\(broken.out)")
            #expect(broken.out.contains(#""code" : "yaml-syntax""#))
        }
    }

    static let overlapping = """
        renderers:
          - { renderer: Sale, types: Record, when: 'price > 5' }
          - { renderer: Cheap, types: Record, when: 'price < 10' }
        """

    /// The config `check` refuses is refused alike by every command that loads one (exit 2, the same finding);
    /// the commands that show what a config does use it with `--accept-check-errors`, saying so.
    @Test func everyCommandRefusesTheConfigCheckRefuses() throws {
        try inDirectory(["overlap.yaml": Self.overlapping]) { dir in
            let sample = Fixtures.path("samples/search-page.json")
            #expect(try run(["check", "overlap.yaml"], directory: dir).status == 1)
            let inspecting = [
                ["compile", "--config", "overlap.yaml", sample],
                ["diff", "--config", "overlap.yaml", "--responses", sample, sample],
                ["explain", "--config", "overlap.yaml", sample, "--row", "13/0"],
            ]
            let running = [
                ["serve", "--config", "overlap.yaml", "--input", "i", "--output", "o", "--http", "off"],
                ["replay", "--config", "overlap.yaml", "--input", "i", "--dry-run"],
            ]
            for args in inspecting + running {
                let r = try run(args, directory: dir)
                #expect(r.status == 2, "\(args[0]): \(r.status) \(r.err)")
                #expect(r.err.contains("[overlapping-conditions] overlap.yaml:3:5"), "\(args[0]): \(r.err)")
                #expect(r.err.contains("overlap.yaml: not used"), "\(args[0]): \(r.err)")
            }
            for args in inspecting {
                let r = try run(args + ["--accept-check-errors"], directory: dir)
                #expect(r.status == 0, "\(args[0]): \(r.status) \(r.err)")
                #expect(r.err.contains("[overlapping-conditions] overlap.yaml:3:5"), "\(args[0]): \(r.err)")
                #expect(r.err.contains("used as it is (--accept-check-errors)"), "\(args[0]): \(r.err)")
            }
        }
    }

    /// `check --client`: the rows one app version draws with a fallback of their chain, or cannot draw; the
    /// records carry the chain (`fallbacks`) that makes it so.
    @Test func checkClientReportsTheRowsAnOldAppDrawsWithAFallback() throws {
        let config = """
            version: 1
            defaultRenderer: GenericCell
            renderers:
              - { renderer: SaleCell, types: Record, when: 'attributes["product.onSale"][0] == "true"' }
              - { renderer: ListCell, types: ResultsList }
              - { renderer: RefinementCell, types: Refinement }
            supplementary:
              - { kind: header, types: RefinementMenu, field: displayName, renderer: MenuHeader }
            """
        let app = "# app 1.0\nListCell\nMenuHeader   # headers\n"
        try inDirectory([
            "c.yaml": config, "app.txt": app, "app.json": #"["ListCell", "RefinementCell", "MenuHeader"]"#,
        ]) { dir in
            let sample = Fixtures.path("samples/search-page.json")
            let compiled = try run(["compile", "--config", "c.yaml", sample], directory: dir)
            #expect(compiled.out.contains(#""renderer":"SaleCell","fallbacks":["ListCell","GenericCell"]"#))
            #expect(compiled.out.contains(#""renderer":"ListCell","fallbacks":["GenericCell"]"#))
            let r = try run(["check", "--client", "app.txt", "c.yaml", sample], directory: dir)
            #expect(r.status == 0, "\(r.out) \(r.err)")
            #expect(r.out.contains("info [client-fallback]"))
            #expect(
                r.out.contains("row 0 (id prod01000): app.txt has no SaleCell; it draws the row as ListCell"),
                "\(r.out)")
            #expect(
                r.out.contains("warning [client-missing]")
                    && r.out.contains("app.txt has no RefinementCell nor any of its fallbacks (GenericCell)"))
            #expect(
                r.out.contains("app.txt: 6 rows drawn as mapped, 3 with a fallback, 15 by no renderer it has"),
                "\(r.out)")
            let failing = try run(
                ["check", "--client", "app.txt", "--fail-on", "warning", "c.yaml", sample], directory: dir)
            #expect(failing.status == 1)
            let json = try run(["check", "--format", "json", "--client", "app.json", "c.yaml", sample], directory: dir)
            let schema = try SchemaValidator(schema: Fixtures.bytes("schemas/check-report.schema.json"))
            #expect(schema.validate(Array(json.out.utf8)).isEmpty, "\(schema.validate(Array(json.out.utf8)))")
            #expect(
                json.out.contains(#""missing" : 7"#) && json.out.contains(#""fallback" : 3"#), "\(json.out.suffix(400))"
            )
            let unreadable = try run(["check", "--client", "nope.txt", "c.yaml"], directory: dir)
            #expect(
                unreadable.status == 1
                    && unreadable.err.contains("--client nope.txt: cannot read the file (No such file or directory)"),
                "\(unreadable.err)")
        }
    }

    /// docs/mapping-config.md's walkthrough, as written: each file it shows is written, each command run in that
    /// directory (with the samples), and every output line it shows must appear, with the exit status it gives.
    @Test func theDocumentedWalkthroughRunsAsWritten() throws {
        let doc = Fixtures.text("docs/mapping-config.md")
        let lines = doc.components(separatedBy: "\n")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lw-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let samples = URL(fileURLWithPath: Fixtures.path("samples"))
        try FileManager.default.createSymbolicLink(
            at: dir.appendingPathComponent("samples"), withDestinationURL: samples)
        /// The lines of the fenced block that starts after line `n`.
        func block(after n: Int) -> [String] {
            guard let open = lines[(n + 1)...].firstIndex(where: { $0.hasPrefix("```") }),
                let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
            else { return [] }
            return Array(lines[(open + 1)..<close])
        }
        var steps = 0
        for (n, line) in lines.enumerated() {
            if let name = line.firstMatch(of: /<!-- walkthrough file: (\S+) -->/)?.output.1 {
                try (block(after: n).joined(separator: "\n") + "\n").write(
                    to: dir.appendingPathComponent(String(name)), atomically: true, encoding: .utf8)
            } else if let status = line.firstMatch(of: /<!-- walkthrough run status=([0-9]+) -->/)?.output.1 {
                let shown = block(after: n)
                let command = try #require(shown.first?.split(separator: " ").map(String.init))
                try #require(command.count > 2 && command[0] == "$" && command[1] == "layout-worker")
                let r = try run(Array(command.dropFirst(2)), directory: dir)
                #expect(r.status == Int32(status), "\(shown[0]): \(r.status) \(r.err)")
                for expected in shown.dropFirst() where !expected.isEmpty {
                    #expect((r.out + r.err).contains(expected), "\(shown[0]) does not print: \(expected)\n\(r.out)")
                }
                steps += 1
            }
        }
        #expect(steps >= 6)
    }

    @Test func replayRefusesAnEmptyRange() throws {
        let r = try run(["replay", "--input", "i", "--start", "offset:5", "--stop", "offset:2", "--dry-run"])
        #expect(r.status == 64 && r.err.contains("--stop offset:2 is not after --start offset:5"), "\(r.err)")
    }

    @Test func checkReadsResponsesFromStandardInput() throws {
        let lines = ["samples/search-page.json", "samples/empty-results.json"].map {
            String(decoding: Fixtures.bytes($0), as: UTF8.self).replacingOccurrences(of: "\n", with: "")
        }
        let r = try run(["check", "config/default.yaml", "-"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(r.status == 0, "\(r.out) \(r.err)")
        #expect(r.out.contains("stdin:1: 15 sections, 24 rows") && r.out.contains("stdin:2: "), "\(r.out)")
    }

    @Test func explainPrintsARowsChain() throws {
        let r = try run(["explain", "--config", "config/default.yaml", "samples/search-page.json", "--row", "13/0"])
        #expect(r.status == 0, "\(r.err)")
        for expected in [
            "row 0 (id prod01000) of section 13", "model: @class com.endeca.infront.cartridge.model.Record",
            "1. Record (@class short name)",
            #"renderer SaleProductCell (config/default.yaml:23:5) when 'attributes["product.onSale"][0] == "true"' → true (attributes["product.onSale"][0] = "true")"#,
            "→ false", "defaultRenderer: GenericContentCell", "chosen: SaleProductCell, at Record",
            "runner-up: GenericContentCell",
        ] {
            #expect(r.out.contains(expected), "\(expected) in \(r.out)")
        }
        let byId = try run(
            [
                "explain", "--config", "config/default.yaml", "samples/search-page.json", "--row",
                "content/Shared/Results List:MainContent[2]/prod01000",
            ])
        #expect(byId.out == r.out)
        // The path `check`'s findings name for the section works too.
        let byPath = try run([
            "explain", "--config", "config/default.yaml", "samples/search-page.json", "--row",
            "contents[0].MainContent[0].contents[2]/0",
        ])
        #expect(byPath.out == r.out, "\(byPath.err)")
        let wrong = try run([
            "explain", "--config", "config/default.yaml", "samples/search-page.json", "--row", "13/99",
        ])
        #expect(wrong.status == 64 && wrong.err.contains("no row '99' in section 13: it has"), "\(wrong.err)")
        // A usage error found while running shows the command's usage, not the top level's.
        #expect(wrong.err.contains("Usage: layout-worker explain [--config"), "\(wrong.err)")
    }

    /// The CI command the docs give passes on the samples, one of which holds data problems on purpose: they are
    /// reported, marked `data`, apart from the config's findings; `--fail-on-data` fails on them.
    @Test func checkReportsAResponsesDataProblemsApartFromTheConfigs() throws {
        let samples = try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("samples"))
            .filter { $0.hasSuffix(".json") }.sorted().map { "samples/" + $0 }
        let result = try run(["check", "config/default.yaml"] + samples)
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("  data error [rows-unreadable]"), "\(result.out)")
        #expect(result.out.contains("ok (and 2 data problems of the responses themselves"), "\(result.out)")
        let strict = try run(["check", "--fail-on-data", "config/default.yaml", "samples/cartridge-error.json"])
        #expect(strict.status == 1 && strict.err.contains("1 finding at error or worse"), "\(strict.err)")
    }
}

/// Settings out of range are refused with a message naming them, never clamped or accepted.
@Suite struct SettingValidationTests {
    @Test(arguments: [
        (["--max-in-flight", "0"], "max-in-flight must be at least 1, not 0"),
        (["--batch-size=-5"], "batch-size must be at least 1, not -5"),
        (["--max-message-bytes", "0"], "max-message-bytes must be at least 1, not 0"),
        (["--max-in-flight-bytes", "0"], "max-in-flight-bytes must be at least 1, not 0"),
        (["--brokers", "not-a-host:99999"], "has port '99999': a port is a number from 1 to 65535"),
        (["--brokers", ",,,"], "brokers is empty"),
        (["--brokers", "a:1,,b:2"], "has an empty entry"),
        (["--brokers", "localhost"], "has no port"),
        (["--brokers", "::1:9092"], "IPv6 hosts in brackets"),
    ])
    func refused(arguments: [String], message: String) throws {
        let r = try run(["serve", "--input", "in", "--output", "out", "--http", "off"] + arguments)
        #expect(r.status == 64, "\(arguments): \(r.err)")
        #expect(r.err.contains(message), "\(arguments): \(r.err)")
    }

    /// The broker list is checked before the numeric settings, so a good list gets as far as the next mistake.
    @Test func goodBrokerListsAreAccepted() throws {
        for list in ["127.0.0.1:9092", "a:1,b:2", "SSL://[::1]:9093", " host:9092 , other:9093 "] {
            let r = try run([
                "serve", "--input", "in", "--output", "out", "--http", "off", "--brokers", list, "--max-in-flight", "0",
            ])
            #expect(r.status == 64 && r.err.contains("max-in-flight must be at least 1"), "\(list): \(r.err)")
        }
    }
}

/// The responses that trapped every command (integer overflow in the paging arithmetic and in the carried
/// paging window) go through `compile`, `check`, `diff` and `apply` with an exit status, never a signal.
@Suite(.serialized) struct OverflowCommandTests {
    @Test func everyCommandSurvivesTheOverflowResponses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lw-overflow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let overflow =
            #"{"@type":"ResultsList","recsPerPage":10,"totalNumRecs":9223372036854775807,"firstRecNum":1,"lastRecNum":10,"pagingActionTemplate":{"navigationState":"?No=%7Boffset%7D"},"records":[]}"#
        let end = overflow.replacingOccurrences(
            of: #""firstRecNum":1,"lastRecNum":10"#,
            with: #""firstRecNum":9223372036854775800,"lastRecNum":9223372036854775807"#)
        let next = overflow.replacingOccurrences(
            of: #""firstRecNum":1,"lastRecNum":10"#,
            with: #""firstRecNum":9223372036854775807,"lastRecNum":9223372036854775807"#)
        var files: [String] = []
        for (name, text) in [("overflow", overflow), ("end", end), ("next", next)] {
            let url = dir.appendingPathComponent("\(name).json")
            try Data(text.utf8).write(to: url)
            files.append(url.path)
        }
        let compiled = try run(["compile"] + files)
        #expect(compiled.status == 0, "\(compiled.err)")
        #expect(compiled.out.contains(#""pageCount":922337203685477581"#))
        let checked = try run(["check", "config/default.yaml"] + files)
        #expect(checked.status == 0 || checked.status == 1, "check: \(checked.status) \(checked.err)")
        let record = dir.appendingPathComponent("end.record.json").path
        try Data(compiled.out.split(separator: "\n")[1].utf8).write(to: URL(fileURLWithPath: record))
        for (a, b) in [(files[1], files[2]), (files[2], files[1]), (files[0], files[2])] {
            let diff = try run(["diff", "--responses", a, b])
            #expect(diff.status == 0, "diff \(a) \(b): \(diff.err)")
            let changeSet = dir.appendingPathComponent("cs.json").path
            try Data(diff.out.utf8).write(to: URL(fileURLWithPath: changeSet))
            let base = dir.appendingPathComponent("base.json").path
            try Data(try run(["compile", a]).out.utf8).write(to: URL(fileURLWithPath: base))
            let applied = try run(["apply", base, changeSet])
            #expect(applied.status == 0, "apply: \(applied.err)")
        }
    }
}

/// NDJSON on standard input gives the same records as the same bytes in files, with lines that span the reader's
/// 1 MiB buffer, blank lines between them and a last line without a line end; `--version` prints the version.
@Suite(.serialized) struct StandardInputTests {
    @Test func linesAcrossReadBoundariesCompileLikeFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lw-stdin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = Fixtures.samples.map { Fixtures.text($0).replacingOccurrences(of: "\n", with: "") }
        // 70 lines of 4-45 KB: about 2.3 MB, so lines start and end at every offset relative to the 1 MiB reads.
        let lines = (0..<70).map { pages[$0 % pages.count] }
        let input = dir.appendingPathComponent("in.ndjson")
        try Data((lines.joined(separator: "\n\n \r\n")).utf8).write(to: input)  // no line end after the last
        let output = dir.appendingPathComponent("out.ndjson")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = layoutWorkerProcess(["compile"])
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let records = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        #expect(records.count == 70)
        // Each record's sections equal those compiled from the sample's file.
        var expected: [String: NSArray] = [:]
        for (sample, page) in zip(Fixtures.samples, pages) {
            let r = try run(["compile", sample])
            let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! NSDictionary
            expected[page] = object["sections"] as? NSArray
        }
        for (n, record) in records.enumerated() {
            let object = try JSONSerialization.jsonObject(with: Data(record.utf8)) as! NSDictionary
            #expect(object["sections"] as? NSArray == expected[lines[n]], "line \(n + 1)")
            #expect((object["source"] as? NSDictionary)?["file"] as? String == "stdin:\(n * 3 + 1)")
        }
    }

    /// Large pages reuse memory from one response to the next: the process's minor page faults grow by far less
    /// per extra 600 KB response than the page's size in pages (146). Before the allocator kept large blocks in the
    /// heap, each response faulted its input, tape and record in anew: about 690 faults per response.
    @Test func largePagesDoNotFaultTheirBuffersInPerResponse() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lw-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("large.json")
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        made.arguments = ["python3", Fixtures.path("scripts/make-large-page.py"), page.path]
        made.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try made.run()
        made.waitUntilExit()
        try #require(made.terminationStatus == 0)
        /// The minor faults of one `compile` process, spawned and reaped here (Foundation's `Process` reaps its
        /// children itself, which would leave nothing for `wait4` to report).
        func faults(_ copies: Int) throws -> Int {
            let arguments =
                [layoutWorkerBinary, "compile", "--jobs", "2"]
                + Array(repeating: page.path, count: copies)
            var argv = arguments.map { strdup($0) } + [nil]
            defer { for a in argv { free(a) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            var pid: pid_t = 0
            try #require(posix_spawn(&pid, argv[0]!, &actions, nil, &argv, environ) == 0)
            var status: Int32 = 0
            var usage = rusage()
            try #require(wait4(pid, &status, 0, &usage) == pid)
            try #require(status == 0)
            return usage.ru_minflt
        }
        // Both runs fill at least one batch (16 responses on two threads), whose records are held until it is
        // written: what grows beyond is what a response costs.
        let few = try faults(20), many = try faults(60)
        let perResponse = Double(many - few) / 40
        #expect(perResponse < 60, "\(perResponse) minor faults per extra response (\(few) for 20, \(many) for 60)")
    }

    /// Every record and change set of the samples (and the corpus page, when present) is byte for byte what the
    /// reference revision wrote: `Tests/output-hashes.txt` (from `scripts/output-hashes.py`) holds their SHA-256.
    @Test func outputsAreByteIdenticalToTheReference() throws {
        let lines = Fixtures.text("Tests/output-hashes.txt").split(separator: "\n")
        #expect(lines.count >= 24)
        var compared = 0
        for line in lines {
            let expected = String(line.prefix(64))
            let arguments = line.dropFirst(66).split(separator: " ").map(String.init)
            // Corpus lines need ../shared; skip them cleanly when it is absent.
            guard
                arguments.allSatisfy({
                    !$0.hasPrefix("../shared") || FileManager.default.fileExists(atPath: Fixtures.path($0))
                })
            else { continue }
            let r = try run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.err)")
            #expect(try sha256(Data(r.out.utf8)) == expected, "\(arguments.joined(separator: " ")) differs")
            compared += 1
        }
        #expect(compared >= 24)
    }

    @Test func versionIsPrinted() throws {
        let r = try run(["--version"])
        #expect(
            r.status == 0 && r.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3,
            "\(r.out) \(r.err)")
    }

    /// Without --config, compile finds config/default.yaml beside the binary from any directory, and says where it
    /// looked when there is none.
    @Test func theDefaultConfigIsFoundBesideTheBinary() throws {
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let found = try run(["compile", Fixtures.path("samples/search-page.json")], directory: elsewhere)
        #expect(found.status == 0 && found.out.hasPrefix("{\"version\":2"), "\(found.err)")
        let lonely = elsewhere.appendingPathComponent("bin/layout-worker")
        try FileManager.default.createDirectory(
            at: lonely.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: layoutWorkerBinary, toPath: lonely.path)
        let missing = try run(
            ["compile", Fixtures.path("samples/search-page.json")], binary: lonely.path, directory: elsewhere)
        if !FileManager.default.fileExists(atPath: "/etc/layout-worker/default.yaml") {
            #expect(
                missing.status == 2 && missing.err.contains("looked in: ")
                    && missing.err.contains("share/layout-worker/default.yaml"), "\(missing.err)")
        }
    }
}
