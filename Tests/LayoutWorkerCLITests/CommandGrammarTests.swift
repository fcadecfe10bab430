import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import LayoutWorkerCLI

/// Every command speaks one grammar, read from the commands' own definitions (ArgumentParser's dump of them) as
/// `SettingTableTests` keeps the settings true: one name for one thing, `--config` wherever a mapping config is
/// read, `--format json` as the one machine-readable output, and exit statuses from docs/operating.md's table.
@Suite struct CommandGrammarTests {
    struct Name: Decodable {
        let kind: String
        let name: String
    }

    struct Argument: Decodable {
        let kind: String
        let names: [Name]?
        let abstract: String?
        let allValues: [String]?
        var long: [String] { (names ?? []).filter { $0.kind == "long" }.map(\.name) }
    }

    struct Command: Decodable {
        let commandName: String
        let abstract: String?
        let arguments: [Argument]?
        let subcommands: [Command]?
        func option(_ name: String) -> Argument? { (arguments ?? []).first { $0.long.contains(name) } }
    }

    struct Dump: Decodable { let command: Command }

    /// Every subcommand of `layout-worker`, as its definition says.
    static let commands: [Command] = {
        let dump = try! JSONDecoder().decode(Dump.self, from: Data(LayoutWorkerCommand._dumpHelp().utf8))
        return (dump.command.subcommands ?? []).filter { $0.commandName != "help" }
    }()

    @Test func everyCommandIsRead() {
        #expect(Self.commands.count == LayoutWorkerCommand.configuration.subcommands.count)
        #expect(Self.commands.contains { $0.commandName == "replay" && $0.option("input") != nil })
    }

    /// A name shared by several commands is a flag in all of them or takes a value in all of them.
    @Test func aNameIsOneKindOfArgumentEverywhere() {
        var kinds: [String: [String: Set<String>]] = [:]
        for command in Self.commands {
            for argument in command.arguments ?? [] {
                for name in argument.long {
                    kinds[name, default: [:]][argument.kind, default: []].insert(command.commandName)
                }
            }
        }
        for (name, byKind) in kinds { #expect(byKind.count == 1, "--\(name) is \(byKind) depending on the command") }
    }

    /// Topics have five names: `--input`/`--output` (responses and records), `--topic` (the one topic a tool acts
    /// on), and the worker's `--dead-letter`, `--changes-topic`, `--latest-layout-topic`.
    @Test func topicsHaveOneVocabulary() {
        let allowed: Set = ["input", "output", "topic", "dead-letter", "changes-topic", "latest-layout-topic"]
        for command in Self.commands {
            for argument in command.arguments ?? [] where argument.kind == "option" {
                for name in argument.long where name.contains("topic") || (argument.abstract ?? "").hasPrefix("Topic") {
                    #expect(allowed.contains(name), "\(command.commandName) --\(name): a topic under a name of its own")
                }
            }
        }
    }

    /// `--format` takes `json` wherever it is; no command has a JSON switch of its own; every old spelling
    /// (`FormerNames`) is gone from the commands whose new name it rewrites to.
    @Test func machineReadableOutputIsFormatJSON() {
        for command in Self.commands {
            let names = Set((command.arguments ?? []).flatMap(\.long))
            #expect(!names.contains("json") && !names.contains("ndjson"), "\(command.commandName) has a --json")
            if let format = command.option("format") {
                #expect(format.allValues?.contains("json") == true, "\(command.commandName) --format: \(format)")
            }
            for (old, new) in FormerNames.all where names.contains(String(new.prefix { $0 != "=" })) {
                #expect(!names.contains(old), "\(command.commandName) has both --\(old) and --\(new)")
            }
        }
        let formats = Self.commands.filter { $0.option("format") != nil }.map(\.commandName).sorted()
        #expect(formats == ["check", "replay", "tail"])
    }

    /// Every command that reads a mapping config takes `--config` (and so `LAYOUT_WORKER_CONFIG`, tested in
    /// `ConfigArgumentTests`); `--partitions` is a selection wherever it is.
    @Test func configAndPartitionsMeanOneThing() {
        for command in Self.commands {
            let texts = [command.abstract ?? ""] + (command.arguments ?? []).compactMap(\.abstract)
            if texts.contains(where: { $0.lowercased().contains("mapping config") }) {
                #expect(command.option("config") != nil, "\(command.commandName) reads a config without --config")
            }
            if let partitions = command.option("partitions") {
                #expect(
                    partitions.abstract?.contains("e.g. 0,") == true,
                    "\(command.commandName) --partitions is not a selection: \(partitions.abstract ?? "")")
            }
        }
    }

    /// A file named on the command line that cannot be read stops every command the same way: exit 1, the path and
    /// the system's reason (produce reads its files before it connects, so nothing is sent).
    @Test func anUnreadableFileIsOneErrorEverywhere() throws {
        for command in [
            ["compile", "nope.json"], ["explain", "nope.json"], ["diff", "nope.json", "nope.json"],
            ["apply", "nope.json", "nope.json"], ["produce", "--brokers", "127.0.0.1:1", "--topic", "t", "nope.json"],
        ] {
            let r = try runCLI(command)
            #expect(
                r.status == 1 && r.err.contains("nope.json: ")
                    && r.err.contains("cannot read the file (No such file or directory)"),
                "\(command): exit \(r.status), \(r.err)")
            #expect(!r.err.contains("librdkafka"), "\(command) connected before reading its files: \(r.err)")
        }
    }

    /// Every exit status a command stops with is a row of docs/operating.md's exit-status table.
    @Test func everyExitStatusIsInTheTable() throws {
        let guide = Fixtures.text("docs/operating.md")
        let table = guide.split(separator: "\n").compactMap {
            $0.firstMatch(of: /^\| (\d+) \|/).map { Int($0.output.1)! }
        }
        #expect(Set(table) == [0, 1, 2, 64, 130], "\(table)")
        let folder = Fixtures.path("Sources/LayoutWorkerCLI")
        var used: Set<Int> = [Int(ExitCode.validationFailure.rawValue)]
        for file in try FileManager.default.subpathsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for match in text.matches(of: /ExitCode\((\d+)\)/) { used.insert(Int(match.output.1)!) }
        }
        #expect(used.isSubset(of: Set(table)), "exit statuses used but not in the table: \(used.subtracting(table))")
    }
}
