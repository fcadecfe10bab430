import ArgumentParser

/// The commands that read settings from flags, the environment and the settings file.
enum SettingCommand: String, CaseIterable, Sendable {
    case serve, replay, preview, gateway, tail, offsets, produce, createTopics = "create-topics"
    /// Every command that talks to Kafka.
    static let kafka = Set(allCases)
}

/// What every entry of `SettingTable` tells, whatever its value's type.
protocol SettingEntry: Sendable {
    /// The flag (`--name`), the settings-file key and, upper-cased, the environment variable.
    var name: String { get }
    /// The commands that read it.
    var commands: Set<SettingCommand> { get }
    /// The sentence `--help` and docs show, without the default.
    var summary: String { get }
    /// The default as shown, if there is one.
    var defaultText: String? { get }
    /// Whether it has a flag (a few come only from the environment or the file).
    var hasFlag: Bool { get }
}

extension SettingEntry {
    /// `LAYOUT_WORKER_MAX_IN_FLIGHT` for `max-in-flight`.
    var variable: String { SettingsSources.variable(name) }

    /// The option's help: the summary with its variable and default.
    var help: ArgumentHelp {
        ArgumentHelp("\(summary) (\(variable)\(defaultText.map { "; default \($0)" } ?? ""))")
    }
}

/// One setting: its name, what reads it, its default, and how its text becomes a value (a wrong value is refused
/// with a message naming the setting, never clamped).
struct Setting<Value: Sendable>: SettingEntry {
    let name: String
    let commands: Set<SettingCommand>
    let summary: String
    let defaultText: String?
    var hasFlag = true
    let parse: @Sendable (_ text: String, _ name: String) throws -> Value

    init(
        _ name: String, _ commands: Set<SettingCommand>, _ summary: String, default defaultText: String? = nil,
        parse: @escaping @Sendable (_ text: String, _ name: String) throws -> Value
    ) {
        self.name = name
        self.commands = commands
        self.summary = summary
        self.defaultText = defaultText
        self.parse = parse
    }
}

extension Setting {
    /// The same setting without a flag: only the environment and the settings file set it.
    func withoutFlag() -> Self {
        var s = self
        s.hasFlag = false
        return s
    }
}

extension Setting where Value == String {
    /// A text setting.
    init(_ name: String, _ commands: Set<SettingCommand>, _ summary: String, default defaultText: String? = nil) {
        self.init(name, commands, summary, default: defaultText) { text, _ in text }
    }
}

extension Setting where Value == Int {
    /// An integer setting, refused below `minimum`.
    init(
        _ name: String, _ commands: Set<SettingCommand>, _ summary: String, default value: Int? = nil,
        atLeast minimum: Int
    ) {
        self.init(name, commands, summary, default: value.map(String.init)) { text, name in
            guard let n = Int(text) else { throw ValidationError("\(name) must be an integer, not '\(text)'") }
            guard n >= minimum else { throw ValidationError("\(name) must be at least \(minimum), not \(n)") }
            return n
        }
    }
}

extension Setting where Value == Duration {
    /// A duration given in whole milliseconds (the setting's name ends in `-ms`), refused below `minimum`.
    init(
        _ name: String, _ commands: Set<SettingCommand>, _ summary: String, default value: Duration,
        atLeast minimum: Duration
    ) {
        let (shown, least) = (Self.milliseconds(value), Self.milliseconds(minimum))
        self.init(name, commands, summary, default: String(shown)) { text, name in
            guard let n = Int(text) else { throw ValidationError("\(name) must be an integer, not '\(text)'") }
            guard n >= least else { throw ValidationError("\(name) must be at least \(least), not \(n)") }
            return .milliseconds(n)
        }
    }

    private static func milliseconds(_ d: Duration) -> Int {
        Int(d.components.seconds) * 1000 + Int(d.components.attoseconds / 1_000_000_000_000_000)
    }
}

extension Setting where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// A setting taking one of `Value`'s raw values.
    /// `shown` describes a default that is not one value.
    init(
        _ name: String, _ commands: Set<SettingCommand>, _ summary: String, default value: Value? = nil,
        shown: String? = nil
    ) {
        let names = Value.allCases.map(\.rawValue)
        let choices = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        self.init(name, commands, "\(summary): \(choices)", default: shown ?? value?.rawValue) { text, name in
            guard let v = Value(rawValue: text) else { throw ValidationError("\(name) must be \(choices)") }
            return v
        }
    }
}
