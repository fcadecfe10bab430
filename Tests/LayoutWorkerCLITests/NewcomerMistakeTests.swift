import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import LayoutWorkerCLI

/// What a newcomer trips over, each answered with what to do: help texts that say one thing one way, advice only
/// for flags the command takes, a misspelt client list, records expected where responses were given, an example
/// that works.
@Suite struct NewcomerMistakeTests {
    /// Two renderers that both hold for every record: a config `check` refuses.
    static let ambiguous = """
        defaultRenderer: GenericCell
        renderers:
          - { renderer: A, types: Record, when: 'exists attributes' }
          - { renderer: B, types: Record, when: 'exists attributes' }
        """

    @Test func everyCommandDescribesTheDefaultConfigTheSameWay() {
        let commands: [any ParsableCommand.Type] = [
            CompileCommand.self, CheckCommand.self, ExplainCommand.self, DiffCommand.self, ServeCommand.self,
            ReplayCommand.self, PreviewCommand.self, GatewayCommand.self,
        ]
        for command in commands {
            let help = LayoutWorkerCommand.helpMessage(for: command, columns: 1_000)
            let line = help.split(separator: "\n").first { $0.contains("--config <config>") && $0.contains("Mapping") }
            #expect(line?.contains(DefaultMappingConfig.places) == true, "\(command): \(line ?? "no --config line")")
        }
        let gateway = LayoutWorkerCommand.helpMessage(for: GatewayCommand.self, columns: 1_000)
        #expect(!gateway.contains("partitioned like the input"))
        #expect(gateway.contains("Compacted topic of every page's latest layout (serve writes it"), "\(gateway)")
    }

    /// A command that takes `--accept-check-errors` names it; `serve` does not take it and never suggests it.
    @Test func acceptCheckErrorsIsSuggestedOnlyWhereItIsTaken() throws {
        let bad = "renderers:\n  - { renderer: A, types: Record }\n  - { renderer: B, types: Record }\n"
        try inDirectory(["bad.yaml": bad]) { dir in
            let config = dir.appendingPathComponent("bad.yaml").path
            let serve = try runCLI([
                "serve", "--brokers", "127.0.0.1:1", "--input", "in", "--output", "out", "--http", "off",
                "--config", config,
            ])
            #expect(serve.status == 2 && serve.err.contains("not used: fix the findings above"), "\(serve.err)")
            #expect(!serve.err.contains("--accept-check-errors"), "\(serve.err)")
            let compile = try runCLI(["compile", "--config", config, Fixtures.path("samples/search-page.json")])
            #expect(compile.status == 2 && compile.err.contains("or pass --accept-check-errors"), "\(compile.err)")
        }
    }

    @Test func explainSaysBothForTwoAndItsExamplePathExists() throws {
        try inDirectory(["ambiguous.yaml": Self.ambiguous]) { dir in
            let r = try runCLI([
                "explain", "--accept-check-errors", "--config", dir.appendingPathComponent("ambiguous.yaml").path,
                Fixtures.path("samples/search-page.json"), "--row", "13/0",
            ])
            #expect(r.out.contains("ambiguous at Record: A, B both hold; the row is unresolved"), "\(r.out)\(r.err)")
        }
        let help = LayoutWorkerCommand.helpMessage(for: ExplainCommand.self, columns: 1_000)
        let example = try #require(help.firstMatch(of: /e\.g\. (contents\[[^ ]+\])\)/)?.output.1, "\(help)")
        let r = try runCLI(["explain", Fixtures.path("samples/search-page.json"), "--row", "\(example)/0"])
        #expect(r.status == 0 && r.out.contains("row 0 (id prod01000)"), "\(example): \(r.err)")
    }

    /// `check --client`: a name the config never gives is a finding with the nearest one; a list that is not one
    /// name a line or a JSON list of names is refused where it is wrong.
    @Test func aClientListIsCheckedAgainstTheConfig() throws {
        try inDirectory([
            "app.txt": "ProductCel\nSaleProductCell\n", "commas.txt": "ProductCell, SaleProductCell\n",
            "broken.json": #"["ProductCell",]"#,
        ]) { dir in
            let config = Fixtures.path("config/default.yaml")
            let misspelt = try runCLI(["check", "--client", dir.appendingPathComponent("app.txt").path, config])
            #expect(
                misspelt.out.contains(
                    "warning [client-unknown] \(dir.appendingPathComponent("app.txt").path):1: app.txt lists ProductCel, a renderer this config never gives; did you mean 'ProductCell'?"
                ), "\(misspelt.out)")
            let commas = try runCLI(["check", "--client", dir.appendingPathComponent("commas.txt").path, config])
            #expect(
                commas.status == 1 && commas.err.contains(":1: 'ProductCell, SaleProductCell' is not a renderer name"))
            let broken = try runCLI(["check", "--client", dir.appendingPathComponent("broken.json").path, config])
            #expect(broken.status == 1 && broken.err.contains("not a valid JSON list"), "\(broken.err)")
        }
    }

    @Test func diffOfTwoResponsesSaysToPassResponses() throws {
        let r = try runCLI(["diff", "samples/search-page.json", "samples/grouped-results.json"])
        #expect(r.status == 1)
        #expect(r.err.contains("it is an assembler response: pass --responses"), "\(r.err)")
    }
}
