import ArgumentParser
import ContentTree
import Foundation
import Kafka
import Yams

/// Where a command's settings come from, in order of precedence: flags, then the environment (`LAYOUT_WORKER_<NAME>`),
/// then the YAML settings file (keys named like the options). Every Kafka command reads them the same way.
///
/// librdkafka properties merge key by key across the three (a flag's `key=value` wins over the same key from the
/// environment, which wins over the file), and come in three shapes: the repeatable flag `--kafka-property k=v`; one
/// variable per property, `LAYOUT_WORKER_KAFKA_<KEY>` with the key's dots written as underscores
/// (`LAYOUT_WORKER_KAFKA_SASL_PASSWORD`), whose value may hold commas; and a mapping in the file. The
/// comma-separated `LAYOUT_WORKER_KAFKA_PROPERTY=k=v,k=v` is read too, for values without commas.
///
/// An unknown key in the file is an error that names the closest known one; so is an unknown `LAYOUT_WORKER_*` variable
/// (`EnvironmentOptions`: every option of every command has one).
struct SettingsSources {
    /// A file value: a scalar, a list or a mapping (property maps).
    enum FileValue {
        case scalar(String)
        case list([String])
        case map([(String, String)])
    }

    static let environmentPrefix = "LAYOUT_WORKER_"

    let environment: [String: String]
    let file: [String: FileValue]
    let filePath: String?
    /// Old names (`SettingTable.renamed`) the environment or the file used, read under their new names.
    private(set) var formerNamesUsed: [(old: String, new: String, place: String)] = []

    /// Reads the environment and the settings file (`--settings`, else `LAYOUT_WORKER_SETTINGS`), takes old names
    /// under their new ones, and refuses unknown keys in the file.
    init(settingsFlag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let path = settingsFlag ?? environment[Self.environmentPrefix + "SETTINGS"].flatMap { $0.isEmpty ? nil : $0 }
        filePath = path
        var environment = environment
        var file = try path.map(Self.readFile) ?? [:]
        for (old, new) in SettingTable.renamed.sorted(by: { $0.key < $1.key }) {
            if let value = environment.removeValue(forKey: Self.variable(old)) {
                if environment[Self.variable(new)] == nil { environment[Self.variable(new)] = value }
                formerNamesUsed.append((Self.variable(old), Self.variable(new), "environment"))
            }
            if let value = file.removeValue(forKey: old) {
                if file[new] == nil { file[new] = value }
                formerNamesUsed.append((old, new, path ?? "the settings file"))
            }
        }
        self.environment = environment
        self.file = file
        try validate()
    }

    /// The environment variable of a setting: `LAYOUT_WORKER_MAX_IN_FLIGHT` for `max-in-flight`.
    static func variable(_ name: String) -> String {
        environmentPrefix + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    func value(_ flag: String?, _ name: String) -> String? {
        if let flag { return flag }
        if let v = environment[Self.variable(name)], !v.isEmpty { return v }
        switch file[name] {
        case .scalar(let s)?: return s
        case .list(let l)?: return l.joined(separator: ",")
        default: return nil
        }
    }

    func list(_ flags: [String], _ name: String) -> [String] {
        if !flags.isEmpty { return flags }
        if case .list(let l)? = file[name], environment[Self.variable(name)] == nil { return l }
        return value(nil, name)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        } ?? []
    }

    /// A setting's typed value: the flag, else the environment, else the file, parsed by the setting; else its
    /// default (nil for a setting without one).
    func read<Value>(_ setting: Setting<Value>, _ flag: String? = nil) throws -> Value {
        guard let text = value(flag, setting.name) else { return setting.defaultValue }
        return try setting.parse(text, setting.name)
    }

    /// A list setting's values (repeated flags, else comma-separated in the environment, else the file's list).
    func list(_ setting: some SettingEntry, _ flags: [String]) -> [String] { list(flags, setting.name) }

    /// A property setting's librdkafka properties (see `properties(_:_:)`).
    func properties(_ setting: some SettingEntry, _ flags: [String]) throws -> [String: String] {
        try properties(flags, setting.name)
    }

    /// The librdkafka properties of `name` (`kafka-property`, `consumer-property`, `producer-property`), merged
    /// key by key: file, then environment, then flags.
    func properties(_ flags: [String], _ name: String) throws -> [String: String] {
        var out: [String: String] = [:]
        switch file[name] {
        case .map(let pairs)?: for (k, v) in pairs { out[k] = v }
        case .list(let items)?:
            for (k, v) in try SettingValidation.properties(items, name + " in \(filePath ?? "the settings file")") {
                out[k] = v
            }
        case .scalar(let s)?:
            for (k, v) in try SettingValidation.properties([s], name + " in \(filePath ?? "the settings file")") {
                out[k] = v
            }
        case nil: break
        }
        let listVariable = Self.variable(name)
        if let list = environment[listVariable], !list.isEmpty {
            let items = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            for (k, v) in try SettingValidation.properties(items, listVariable) { out[k] = v }
        }
        if let prefix = SettingTable.propertySettings[name].map({ Self.environmentPrefix + $0 }) {
            for (variable, v) in environment where variable.hasPrefix(prefix) && variable != listVariable {
                let key = variable.dropFirst(prefix.count).lowercased().replacingOccurrences(of: "_", with: ".")
                if !key.isEmpty { out[key] = v }
            }
        }
        for (k, v) in try SettingValidation.properties(flags, "--" + name) { out[k] = v }
        // Checked before anything is logged: a misspelled key is refused by name, its value never repeated.
        for key in out.keys.sorted() {
            guard let problem = KafkaConfiguration.problem(key: key, value: out[key]!) else { continue }
            let suggestion =
                Librdkafka.propertyNames.contains(key)
                ? "" : Suggestion.clause(for: key, among: Librdkafka.propertyNames)
            throw ValidationError("\(name) \(key): \(problem)\(suggestion)")
        }
        return out
    }

    /// Refuses unknown file keys, naming the closest known one (unknown variables are refused for every command by
    /// `EnvironmentOptions.refuseUnknown` before it runs).
    func validate() throws {
        for key in file.keys.sorted() where !SettingTable.names.contains(key) {
            throw ValidationError(
                "unknown setting '\(key)' in \(filePath ?? "the settings file")\(Suggestion.clause(for: key, among: SettingTable.names))"
            )
        }
    }

    static func readFile(_ path: String) throws -> [String: FileValue] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("cannot read settings file \(path)")
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw ValidationError("settings file \(path) is not valid YAML: \(error)")
        }
        guard let node else { return [:] }
        guard case .mapping(let mapping) = node else {
            throw ValidationError("settings file \(path) must be a mapping of setting: value")
        }
        var out: [String: FileValue] = [:]
        for (k, v) in mapping {
            guard let key = k.string else {
                throw ValidationError("settings file \(path): a key that is not a string at line \(k.mark?.line ?? 0)")
            }
            switch v {
            case .scalar(let s): out[key] = .scalar(s.string)
            case .sequence(let seq): out[key] = .list(seq.compactMap(\.string))
            case .mapping(let m):
                out[key] = .map(m.compactMap { kv in kv.key.string.map { ($0, kv.value.string ?? "") } })
            default: throw ValidationError("settings file \(path): '\(key)' has a value of an unsupported kind")
            }
        }
        return out
    }
}
