import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import LayoutWorkerCLI

/// `SettingTable` is the one list of settings: every command's options agree with it, and the operations guide
/// lists it whole.
@Suite struct SettingTableTests {
    static let commands: [(SettingCommand, any ParsableCommand.Type)] = [
        (.serve, ServeCommand.self), (.replay, ReplayCommand.self), (.preview, PreviewCommand.self),
        (.tail, TailCommand.self), (.offsets, OffsetsCommand.self), (.produce, ProduceCommand.self),
        (.createTopics, CreateTopicsCommand.self),
    ]

    /// The long options a command's help shows.
    static func options(of command: any ParsableCommand.Type) -> Set<String> {
        let help = LayoutWorkerCommand.helpMessage(for: command, columns: 1_000)
        let pattern = /--([a-z][a-z0-9-]*)/
        return Set(help.matches(of: pattern).map { String($0.output.1) })
    }

    /// A command has an option for every setting the table says it reads, and reads every setting it has an option
    /// for (flags only for one run, like `--start`, are not settings).
    @Test(arguments: commands.map(\.0)) func everyCommandsOptionsAgreeWithTheTable(_ name: SettingCommand) {
        let command = Self.commands.first { $0.0 == name }!.1
        let options = Self.options(of: command)
        for setting in SettingTable.all {
            if setting.commands.contains(name) && setting.hasFlag {
                #expect(options.contains(setting.name), "\(name.rawValue) has no --\(setting.name)")
            } else {
                #expect(!options.contains(setting.name), "\(name.rawValue) has --\(setting.name); the table says not")
            }
        }
    }

    /// Each setting's help names its environment variable, and its default where it has one.
    @Test func helpShowsTheVariableAndTheDefault() {
        let help = LayoutWorkerCommand.helpMessage(for: ServeCommand.self, columns: 1_000)
        #expect(help.contains("--max-in-flight <max-in-flight>"))
        #expect(help.contains("LAYOUT_WORKER_MAX_IN_FLIGHT; default 2000"), "\(help)")
        #expect(help.contains("becomes: forward or skip (LAYOUT_WORKER_TOMBSTONES; default forward)"), "\(help)")
        #expect(
            Set(SettingTable.all.map(\.name)).count == SettingTable.all.count, "a setting is in the table twice")
    }

    /// The operations guide has one row per setting, with its variable and the commands that read it.
    @Test func theGuideListsEverySetting() {
        let guide = Fixtures.text("docs/operating.md")
        let rows = guide.split(separator: "\n").filter { $0.hasPrefix("| `--") }
        let documented = Set(rows.compactMap { $0.firstMatch(of: /\| `--([a-z-]+)`/).map { String($0.output.1) } })
        #expect(documented == SettingTable.names, "docs/operating.md's settings table differs from SettingTable")
        for setting in SettingTable.all {
            guard let row = rows.first(where: { $0.hasPrefix("| `--\(setting.name)`") }) else { continue }
            #expect(row.contains("`\(setting.variable)`"), "\(setting.name): \(row)")
            for command in setting.commands where setting.commands != SettingCommand.kafka {
                #expect(row.contains(command.rawValue), "\(setting.name): \(row) does not name \(command.rawValue)")
            }
        }
    }

    /// Parsers refuse what they cannot take, naming the setting.
    @Test func valuesAreRefusedByName() throws {
        #expect(throws: ValidationError.self) { try SettingTable.batchSize.parse("0", "batch-size") }
        #expect(throws: ValidationError.self) { try SettingTable.maxInFlight.parse("many", "max-in-flight") }
        #expect(throws: ValidationError.self) { try SettingTable.pageKey.parse("url", "page-key") }
        #expect(try SettingTable.pageKey.parse("response", "page-key") == .response)
        #expect(try SettingTable.pageCacheBytes.parse("1024", "page-cache-bytes") == 1024)
    }
}
