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
        #expect(arguments == ["gateway", "--state-topic", "a", "--changes-topic=c", "--state-topic=b"])
        #expect(used == ["--latest-topic", "--latest-topic"])
        let gateway = try GatewayCommand.parse(Array(arguments.dropFirst(1).prefix(3)))
        #expect(gateway.stateTopic == "a" && gateway.changesTopic == "c")
        // Only for a command that has the new name, and never after `--`.
        #expect(FormerNames.rewrite(["offsets", "--latest-topic", "a"]).used.isEmpty)
        #expect(FormerNames.rewrite(["serve", "--", "--latest-topic"]).arguments == ["serve", "--", "--latest-topic"])
    }

    @Test func oldVariablesAndFileKeysAreReadUnderTheirNewNames() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("former-\(UUID().uuidString).yaml")
        try "latest-topic: from-file\n".write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let file = try SettingsSources(settingsFlag: path.path, environment: [:])
        #expect(file.value(nil, "state-topic") == "from-file")
        #expect(
            file.formerNamesUsed.map(\.old) == ["latest-topic"] && file.formerNamesUsed.map(\.new) == ["state-topic"])
        let both = try SettingsSources(
            settingsFlag: path.path, environment: ["LAYOUT_WORKER_LATEST_TOPIC": "from-environment"])
        #expect(both.value(nil, "state-topic") == "from-environment")
        #expect(both.formerNamesUsed.map(\.old) == ["LAYOUT_WORKER_LATEST_TOPIC", "latest-topic"])
        // The new name wins over the old one.
        let newer = try SettingsSources(
            settingsFlag: nil,
            environment: ["LAYOUT_WORKER_LATEST_TOPIC": "old", "LAYOUT_WORKER_STATE_TOPIC": "new"])
        #expect(newer.value(nil, "state-topic") == "new")
    }

    @Test func anUnknownFlagGetsTheNearestKnownOne() throws {
        let r = try runCLI(["gateway", "--latest-topc", "x"])
        #expect(
            r.status == 64 && r.err.contains("Unknown option '--latest-topc'; did you mean '--state-topic'?"),
            "\(r.err)")
        #expect(r.err.contains("Usage: layout-worker gateway"))
        let near = try runCLI(["tail", "--topic", "t", "--cout", "3"])
        #expect(near.status == 64 && near.err.contains("'--count'"), "\(near.err)")
        let far = try runCLI(["tail", "--topic", "t", "--nothing-like-it", "x"])
        #expect(far.status == 64 && !far.err.lowercased().contains("did you mean"), "\(far.err)")
    }
}
