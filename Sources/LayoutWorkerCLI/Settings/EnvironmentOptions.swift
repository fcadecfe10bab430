import ArgumentParser
import ContentTree

/// The one rule for the environment, every command alike: each option of a command can be given as
/// `LAYOUT_WORKER_<OPTION>` (upper case, dashes as underscores; a flag as `true` or `false`), a flag on the command
/// line winning over it. The settings of `SettingTable` are read by `SettingsSources` (typed, beside the settings
/// file); every other option is added to the command line from its variable before it is parsed. A
/// `LAYOUT_WORKER_*` variable that is no command's option is refused, naming the nearest one when one is close.
enum EnvironmentOptions {
    /// A command's long options (without `--`), each with whether it takes a value, as its help's option lines list
    /// them (`  --key <key>   Message key…`; hidden options are not listed, so they have no variable).
    static func options(of command: any ParsableCommand.Type) -> [String: Bool] {
        let help = LayoutWorkerCommand.helpMessage(for: command, columns: 1_000)
        var out: [String: Bool] = [:]
        for line in help.split(separator: "\n") {
            guard let match = line.firstMatch(of: /^  --([a-z][a-z0-9-]*)( <)?/) else { continue }
            let name = String(match.output.1)
            if !["help", "version"].contains(name) { out[name] = match.output.2 != nil }
        }
        return out
    }

    /// The subcommand `arguments` name first, if any.
    static func command(of arguments: [String]) -> (any ParsableCommand.Type)? {
        LayoutWorkerCommand.configuration.subcommands.first { $0.configuration.commandName == arguments.first }
    }

    /// `arguments` with each option of their command that `environment` gives and the command line does not added
    /// (before a `--`); settings of `SettingTable` are left to `SettingsSources`.
    static func apply(to arguments: [String], environment: [String: String]) throws -> [String] {
        guard environment.keys.contains(where: { $0.hasPrefix(SettingsSources.environmentPrefix) }),
            let command = command(of: arguments)
        else { return arguments }
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let given = Set(
            arguments[..<end].filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2).prefix { $0 != "=" }) })
        var added: [String] = []
        for (name, takesValue) in options(of: command).sorted(by: { $0.key < $1.key })
        where !SettingTable.names.contains(name) && !given.contains(name) {
            let variable = SettingsSources.variable(name)
            guard let value = environment[variable], !value.isEmpty else { continue }
            if takesValue {
                added += ["--" + name, value]
            } else {
                switch value.lowercased() {
                case "true", "1", "yes": added.append("--" + name)
                case "false", "0", "no": break
                default: throw ValidationError("\(variable)=\(value): --\(name) is a flag; give true or false")
                }
            }
        }
        return Array(arguments[..<end]) + added + Array(arguments[end...])
    }

    /// Refuses a `LAYOUT_WORKER_*` variable that is neither a setting (nor a librdkafka property's) nor an option
    /// of any command, naming the nearest variable when one is close.
    static func refuseUnknown(_ environment: [String: String]) throws {
        let prefix = SettingsSources.environmentPrefix
        let propertyPrefixes = SettingTable.propertySettings.values.map { prefix + $0 }
        let unknown = environment.keys.filter { name in
            name.hasPrefix(prefix) && !SettingTable.names.contains(Self.option(name))
                && !propertyPrefixes.contains { name.hasPrefix($0) && name.count > $0.count }
        }
        guard !unknown.isEmpty else { return }
        // Every command's options: only worked out when a variable is not a setting.
        let options = Set(
            LayoutWorkerCommand.configuration.subcommands.flatMap { Self.options(of: $0).keys } + SettingTable.names)
        for name in unknown.sorted() where !options.contains(Self.option(name)) {
            let known = options.map(SettingsSources.variable)
            let suffix = String(name.dropFirst(prefix.count))
            let nearest = Suggestion.closest(to: suffix, among: known.map { String($0.dropFirst(prefix.count)) })
            throw ValidationError(
                "unknown environment variable \(name): no command has --\(Self.option(name))"
                    + (nearest.map { "; did you mean '\(prefix + $0)'?" } ?? "")
                    + " (every option can be set as \(prefix)<OPTION>)")
        }
    }

    /// The option a variable names: `max-in-flight` for `LAYOUT_WORKER_MAX_IN_FLIGHT`.
    static func option(_ variable: String) -> String {
        variable.dropFirst(SettingsSources.environmentPrefix.count).lowercased().replacingOccurrences(
            of: "_", with: "-")
    }
}
