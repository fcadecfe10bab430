import Foundation
import TestSupport
import Testing

@testable import LayoutWorkerCLI

/// `check C R` and `check --config C R` mean the same; `LAYOUT_WORKER_CONFIG` names the config of `compile`, `check`
/// and `explain` when neither does.
@Suite struct ConfigArgumentTests {
    @Test func checkTakesItsConfigFromTheFlagTheFirstArgumentOrTheEnvironment() throws {
        let none: [String: String] = [:]
        let positional = try CheckCommand.configAndResponses(["c.yaml", "a.json"], flag: nil, environment: none)
        let flagged = try CheckCommand.configAndResponses(["a.json"], flag: "c.yaml", environment: none)
        #expect(positional.config == "c.yaml" && positional.responses == ["a.json"])
        #expect(flagged.config == positional.config && flagged.responses == positional.responses)
        let named = ["LAYOUT_WORKER_CONFIG": "env.yaml"]
        let fromEnvironment = try CheckCommand.configAndResponses(["a.json", "-"], flag: nil, environment: named)
        #expect(fromEnvironment.config == "env.yaml" && fromEnvironment.responses == ["a.json", "-"])
        // An explicit config beats the environment's.
        #expect(try CheckCommand.configAndResponses(["c.yaml"], flag: nil, environment: named).config == "c.yaml")
        #expect(try DefaultMappingConfig.path(given: nil, environment: named) == "env.yaml")
        #expect(try DefaultMappingConfig.path(given: "flag.yaml", environment: named) == "flag.yaml")
    }

    @Test func everyConfigReadingCommandTakesTheEnvironmentsConfig() throws {
        let config = Fixtures.path("config/default.yaml")
        let response = Fixtures.path("samples/search-page.json")
        let byFlag = try runCLI(["check", "--config", config, response, "--format", "json"])
        let byPosition = try runCLI(["check", config, response, "--format", "json"])
        let byEnvironment = try runCLI(
            ["check", response, "--format", "json"], environment: ["LAYOUT_WORKER_CONFIG": config])
        #expect(byFlag.status == 0 && byFlag.out == byPosition.out && byFlag.out == byEnvironment.out, "\(byFlag.err)")
        // A config that does not exist, named only by the environment, is what compile, explain and diff report.
        let missing = ["LAYOUT_WORKER_CONFIG": "/nonexistent/mapping.yaml"]
        for command in [
            ["compile", response], ["explain", response], ["check", response],
            ["diff", "--responses", response, response],
        ] {
            let r = try runCLI(command, environment: missing)
            #expect(r.status == 2 && r.err.contains("/nonexistent/mapping.yaml"), "\(command): \(r.status) \(r.err)")
        }
    }
}
