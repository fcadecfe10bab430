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
    /// Whether its flag takes a value starting with `-` (numbers: `--batch-size -5` is refused by the setting's
    /// own message, not taken for another flag).
    var takesNegativeNumbers: Bool { get }
}

extension SettingEntry {
    /// `LAYOUT_WORKER_MAX_IN_FLIGHT` for `max-in-flight`.
    var variable: String { SettingsSources.variable(name) }

    /// The option's help: the summary with its variable and default.
    var help: ArgumentHelp {
        ArgumentHelp("\(summary) (\(variable)\(defaultText.map { "; default \($0)" } ?? ""))")
    }
}

/// One setting, declared once: its name, what reads it, its typed default and how its text becomes a value (a wrong
/// value is refused with a message naming the setting, never clamped). `SettingsSources.read` gives a command the
/// typed value: the flag's, else the environment's, else the file's, else the default.
///
/// A setting without a default has an optional `Value` (`Setting<Int?>`): unset reads as nil. Flags are declared as
/// text (`@Option(SettingTable.batchSize) var batchSize: String?`) so that a flag, a variable and a file key go through
/// the one parser here and fail with the same message.
struct Setting<Value: Sendable>: SettingEntry {
    let name: String
    let commands: Set<SettingCommand>
    let summary: String
    /// What an unset setting reads as.
    let defaultValue: Value
    let defaultText: String?
    var hasFlag = true
    let takesNegativeNumbers: Bool
    let parse: @Sendable (_ text: String, _ name: String) throws -> Value

    init(
        _ name: String, _ commands: Set<SettingCommand>, _ summary: String, default value: Value, shown: String?,
        numeric: Bool = false, parse: @escaping @Sendable (_ text: String, _ name: String) throws -> Value
    ) {
        self.name = name
        self.commands = commands
        self.summary = summary
        self.defaultValue = value
        self.defaultText = shown
        self.takesNegativeNumbers = numeric
        self.parse = parse
    }

    /// The same setting without a flag: only the environment and the settings file set it.
    func withoutFlag() -> Self {
        var s = self
        s.hasFlag = false
        return s
    }
}

/// How a setting's text becomes a value of each kind.
enum SettingParser {
    static func integer(atLeast minimum: Int, atMost maximum: Int = .max) -> @Sendable (String, String) throws -> Int {
        { text, name in
            guard let n = Int(text) else { throw ValidationError("\(name) must be an integer, not '\(text)'") }
            guard n >= minimum else { throw ValidationError("\(name) must be at least \(minimum), not \(n)") }
            guard n <= maximum else { throw ValidationError("\(name) must be \(minimum)…\(maximum), not \(n)") }
            return n
        }
    }

    /// A duration given in whole milliseconds (the setting's name ends in `-ms`).
    static func milliseconds(atLeast minimum: Duration) -> @Sendable (String, String) throws -> Duration {
        let integer = integer(atLeast: wholeMilliseconds(minimum))
        return { text, name in .milliseconds(try integer(text, name)) }
    }

    static func wholeMilliseconds(_ d: Duration) -> Int { Int(d / .milliseconds(1)) }

    /// One of `Choice`'s raw values; `choices` is how the message lists them.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(_: Choice.Type) -> (
        choices: String, parse: @Sendable (String, String) throws -> Choice
    ) where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        let choices = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        return (
            choices,
            { text, name in
                guard let v = Choice(rawValue: text) else { throw ValidationError("\(name) must be \(choices)") }
                return v
            }
        )
    }
}

extension Setting where Value == String {
    /// A text setting with a default.
    init(_ name: String, _ commands: Set<SettingCommand>, _ summary: String, default value: String) {
        self.init(name, commands, summary, default: value, shown: value) { text, _ in text }
    }
}

extension Setting where Value == String? {
    /// A text setting without a default (`shown` describes what its absence means, if anything).
    init(_ name: String, _ commands: Set<SettingCommand>, _ summary: String, shown: String? = nil) {
        self.init(name, commands, summary, default: nil, shown: shown) { text, _ in text }
    }
}

extension Setting where Value == Int {
    /// An integer setting, refused below `minimum`.
    init(_ name: String, _ commands: Set<SettingCommand>, _ summary: String, default value: Int, atLeast minimum: Int) {
        self.init(
            name, commands, summary, default: value, shown: String(value), numeric: true,
            parse: SettingParser.integer(atLeast: minimum))
    }
}

extension Setting where Value == Int? {
    /// An integer setting without a default, refused outside `minimum…maximum`.
    init(
        _ name: String, _ commands: Set<SettingCommand>, _ summary: String, shown: String? = nil, atLeast minimum: Int,
        atMost maximum: Int = .max
    ) {
        let integer = SettingParser.integer(atLeast: minimum, atMost: maximum)
        self.init(name, commands, summary, default: nil, shown: shown, numeric: true) { try integer($0, $1) }
    }
}

extension Setting where Value == Duration {
    /// A duration given in whole milliseconds (the setting's name ends in `-ms`), refused below `minimum`.
    init(
        _ name: String, _ commands: Set<SettingCommand>, _ summary: String, default value: Duration,
        atLeast minimum: Duration
    ) {
        self.init(
            name, commands, summary, default: value, shown: String(SettingParser.wholeMilliseconds(value)),
            numeric: true, parse: SettingParser.milliseconds(atLeast: minimum))
    }
}

extension Setting where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// A setting taking one of `Value`'s raw values; `shown` describes a default that is not one value.
    init(
        _ name: String, _ commands: Set<SettingCommand>, _ summary: String, default value: Value, shown: String? = nil
    ) {
        let (choices, parse) = SettingParser.choice(Value.self)
        self.init(
            name, commands, "\(summary): \(choices)", default: value, shown: shown ?? value.rawValue, parse: parse)
    }
}

extension Setting {
    /// A setting taking one of `Choice`'s raw values, without a default (`shown` says what its absence means).
    init<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ commands: Set<SettingCommand>, _ summary: String, choosing: Choice.Type, shown: String
    ) where Value == Choice?, Choice.RawValue == String {
        let (choices, parse) = SettingParser.choice(Choice.self)
        self.init(name, commands, "\(summary): \(choices)", default: nil, shown: shown) { try parse($0, $1) }
    }
}

extension Option where Value == String? {
    /// The flag of `setting`: its name and help from the table; its text parsed by `SettingsSources.read`.
    init(_ setting: some SettingEntry) {
        self.init(
            name: .customLong(setting.name), parsing: setting.takesNegativeNumbers ? .unconditional : .next,
            help: setting.help)
    }
}

extension Option where Value == [String] {
    /// The repeatable flag of a list or property `setting` (`--input a --input b`).
    init(wrappedValue: [String], _ setting: some SettingEntry) {
        self.init(wrappedValue: wrappedValue, name: .customLong(setting.name), help: setting.help)
    }
}
