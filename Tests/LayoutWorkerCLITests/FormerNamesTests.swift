import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import LayoutWorkerCLI

/// A renamed setting keeps working under its old name (flag, environment variable, settings-file key) with a warning;
/// an unknown flag is answered with the nearest one the command has.
@Suite struct FormerNamesTests {
    @Test func anOldFlagIsReadUnderItsNewName() throws {
        let (arguments, used) = FormerNames.rewrite([
            "gateway", "--latest-topic", "a", "--changes-topic=c", "--latest-topic=b",
        ])
        #expect(arguments == ["gateway", "--latest-layout-topic", "a", "--changes-topic=c", "--latest-layout-topic=b"])
        #expect(used == ["--latest-topic", "--latest-topic"])
        let gateway = try GatewayCommand.parse(Array(arguments.dropFirst(1).prefix(3)))
        #expect(gateway.latestLayoutTopic == "a" && gateway.changesTopic == "c")
        // Only for a command that has the new name, and never after `--`.
        #expect(FormerNames.rewrite(["offsets", "--latest-topic", "a"]).used.isEmpty)
        #expect(FormerNames.rewrite(["serve", "--", "--latest-topic"]).arguments == ["serve", "--", "--latest-topic"])
    }

    /// The page settings' one name in both commands: what was `state-*` (serve and gateway) and `max-held-bytes`
    /// (gateway) is read as `page-*`.
    @Test func thePageSettingsOldNamesAreReadInBothCommands() throws {
        for command in ["serve", "gateway"] {
            let old = [
                "--state-topic", "t", "--state-dir", "d", command == "serve" ? "--state-max-bytes" : "--max-held-bytes",
                "9",
            ]
            let (arguments, used) = FormerNames.rewrite([command] + old)
            #expect(
                arguments == [command, "--latest-layout-topic", "t", "--page-store", "d", "--page-cache-bytes", "9"],
                "\(command)")
            #expect(used.count == 3)
        }
        let serve = try ServeCommand.parse(
            Array(FormerNames.rewrite(["serve", "--state-dir", "d", "--state-max-bytes", "9"]).arguments.dropFirst()))
        #expect(serve.pageStore == "d" && serve.pageCacheBytes == "9")
    }

    /// Flags renamed for one grammar: replay's topics are serve's `--input`/`--output`, `--json` is `--format json`,
    /// and create-topics' count is `--partition-count` (in `tail` and `replay`, `--partitions` stays a selection).
    @Test func renamedFlagsThatAreNotSettingsWorkOnTheCommandLine() throws {
        let replay = FormerNames.rewrite(["replay", "--from-topic", "a", "--to-topic=b", "--json", "--partitions", "1"])
        #expect(replay.arguments == ["replay", "--input", "a", "--output=b", "--format=json", "--partitions", "1"])
        #expect(replay.used == ["--from-topic", "--to-topic", "--json"])
        let parsed = try ReplayCommand.parse(Array(replay.arguments.dropFirst()))
        #expect(parsed.input == ["a"] && parsed.output == "b" && parsed.format == .json && parsed.partitions == "1")
        let create = FormerNames.rewrite(["create-topics", "--partitions", "2", "t"])
        #expect(create.arguments == ["create-topics", "--partition-count", "2", "t"])
        #expect(try CreateTopicsCommand.parse(Array(create.arguments.dropFirst())).partitionCount == 2)
        #expect(FormerNames.rewrite(["tail", "--topic", "t", "--partitions", "0,3"]).used.isEmpty)
        #expect(FormerNames.rewrite(["check", "--json", "c.yaml"]).arguments == ["check", "--format=json", "c.yaml"])
        #expect(FormerNames.rewrite(["compile", "--json"]).used.isEmpty, "compile has no --format to take it")
    }

    @Test func oldVariablesAndFileKeysAreReadUnderTheirNewNames() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("former-\(UUID().uuidString).yaml")
        try "latest-topic: from-file\n".write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let file = try SettingsSources(settingsFlag: path.path, environment: [:])
        #expect(file.value(nil, "latest-layout-topic") == "from-file")
        #expect(
            file.formerNamesUsed.map(\.old) == ["latest-topic"]
                && file.formerNamesUsed.map(\.new) == ["latest-layout-topic"])
        let both = try SettingsSources(
            settingsFlag: path.path, environment: ["LAYOUT_WORKER_LATEST_TOPIC": "from-environment"])
        #expect(both.value(nil, "latest-layout-topic") == "from-environment")
        #expect(both.formerNamesUsed.map(\.old) == ["LAYOUT_WORKER_LATEST_TOPIC", "latest-topic"])
        // The new name wins over the old one.
        let newer = try SettingsSources(
            settingsFlag: nil,
            environment: ["LAYOUT_WORKER_LATEST_TOPIC": "old", "LAYOUT_WORKER_LATEST_LAYOUT_TOPIC": "new"])
        #expect(newer.value(nil, "latest-layout-topic") == "new")
    }

    @Test func anUnknownFlagGetsTheNearestKnownOne() throws {
        let r = try runCLI(["gateway", "--latest-topc", "x"])
        #expect(
            r.status == 64 && r.err.contains("Unknown option '--latest-topc'; did you mean '--latest-layout-topic'?"),
            "\(r.err)")
        #expect(r.err.contains("Usage: layout-worker gateway"))
        let near = try runCLI(["tail", "--topic", "t", "--cout", "3"])
        #expect(near.status == 64 && near.err.contains("'--count'"), "\(near.err)")
        let far = try runCLI(["tail", "--topic", "t", "--nothing-like-it", "x"])
        #expect(far.status == 64 && !far.err.lowercased().contains("did you mean"), "\(far.err)")
    }
}
