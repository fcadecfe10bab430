import ArgumentParser
import ContentTree
import Logging

/// A setting under a name it had before (`SettingTable.renamed`) keeps working for a while: an old flag is
/// rewritten before the command line is parsed, an old settings-file key or `LAYOUT_WORKER_*` variable as it is read
/// (`SettingsSources`), and each use is logged as a warning naming the new name. Flags that are not settings were
/// renamed too (`commandLine`), for the command line only. An unknown flag is answered with the nearest one the
/// command has.
enum FormerNames {
    /// Old spellings of flags that are not settings, each with what it is now (a name, or `name=value` for a flag
    /// that became an option's value): rewritten only in a command that has the new name and not the old one, so
    /// `--partitions` is `--partition-count` in `create-topics` and stays the selection it is in `tail`.
    static let commandLine = [
        "from-topic": SettingTable.input.name, "to-topic": SettingTable.output.name, "json": "format=json",
        "partitions": "partition-count",
    ]

    /// Every old name a command line may use, with its new spelling.
    static var all: [String: String] { SettingTable.renamed.merging(commandLine) { setting, _ in setting } }

    /// The old names a command whose options are `known` takes: those whose new option it has and whose old name it
    /// does not (so `--partitions` is renamed in `create-topics` only).
    private static func taken(by known: Set<String>) -> [String: String] {
        all.filter { known.contains(String($0.value.prefix { $0 != "=" })) && !known.contains($0.key) }
    }

    /// A new spelling as a user writes it: `format json` for `format=json`.
    private static func asTyped(_ spelling: String) -> String { spelling.replacing("=", with: " ") }

    /// The old flags (`--latest-topic`) the running command line used; set by `LayoutWorkerCommand.main`.
    @TaskLocal static var flagsUsed: [String] = []

    /// `arguments` with each old flag (`--old` or `--old=value`, before a `--`) under its new name, and the old flags
    /// found.
    static func rewrite(_ arguments: [String]) -> (arguments: [String], used: [String]) {
        // The command's options come from its help text: built only when an old name is on the command line (every
        // command, `compile` too, starts through here), and once.
        let written = all.filter { old in
            arguments.contains { $0 == "--" + old.key || $0.hasPrefix("--" + old.key + "=") }
        }
        guard !written.isEmpty else { return (arguments, []) }
        let known = options(of: arguments)
        let renamed = taken(by: known).filter { written[$0.key] != nil }
        guard !renamed.isEmpty else { return (arguments, []) }
        var out: [String] = []
        var used: [String] = []
        var inOptions = true
        for argument in arguments {
            if argument == "--" { inOptions = false }
            guard inOptions, argument.hasPrefix("--") else {
                out.append(argument)
                continue
            }
            let name = argument.dropFirst(2).prefix { $0 != "=" }
            guard let new = renamed[String(name)] else {
                out.append(argument)
                continue
            }
            used.append("--" + name)
            out.append("--" + new + argument.dropFirst(2 + name.count))
        }
        return (out, used)
    }

    /// Logs one use of an old name (`where` says which: a flag, a file key, a variable).
    static func warn(_ logger: Logger, used old: String, new: String, where place: String) {
        logger.warning(
            "setting renamed: the old name works for now; use the new one",
            metadata: ["old": .string(old), "new": .string(new), "where": .string(place)])
    }

    /// The old flags of this command line and the old names its settings sources held, logged once the command has
    /// its logger.
    static func warnAboutUses(_ logger: Logger, sources: SettingsSources) {
        for flag in flagsUsed {
            let new = all[String(flag.dropFirst(2))] ?? ""
            warn(logger, used: flag, new: "--" + asTyped(new), where: "command line")
        }
        for use in sources.formerNamesUsed { warn(logger, used: use.old, new: use.new, where: use.place) }
    }

    /// For a parse error naming an unknown option of `arguments`' command that ArgumentParser finds no near name for,
    /// the message with the nearest option the command has, an old name counting as its new one (`Unknown option
    /// '--latest-topc'; did you mean '--latest-layout-topic'?`); nil for any other error.
    static func unknownOptionMessage(_ message: String, arguments: [String]) -> String? {
        guard let match = message.firstMatch(of: /Unknown option '--([^']+)'/), !message.contains("Did you mean")
        else { return nil }
        let written = String(match.output.1)
        let known = options(of: arguments)
        // An old name, or one close to it, means its new name.
        let formerly = taken(by: known)
        guard let closest = Suggestion.closest(to: written, among: known.union(formerly.keys)) ?? formerly[written]
        else { return nil }
        let meant = formerly[closest].map(asTyped) ?? closest
        return message.replacing(
            "Unknown option '--\(written)'", with: "Unknown option '--\(written)'; did you mean '--\(meant)'?")
    }

    /// The long options (without `--`) of the command `arguments` name, as its help lists them.
    static func options(of arguments: [String]) -> Set<String> {
        Set(EnvironmentOptions.options(of: EnvironmentOptions.command(of: arguments) ?? LayoutWorkerCommand.self).keys)
    }
}
