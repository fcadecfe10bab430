import ArgumentParser
import Delivery

/// The limits `serve` and `replay` share (`DeliveryLimits`): one declaration, one set of defaults.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong(SettingTable.tombstones.name), help: SettingTable.tombstones.help) var tombstones: String?
    @Option(
        name: .customLong(SettingTable.maxMessageBytes.name), parsing: .unconditional,
        help: SettingTable.maxMessageBytes.help)
    var maxMessageBytes: String?
    @Option(
        name: .customLong(SettingTable.maxInFlight.name), parsing: .unconditional, help: SettingTable.maxInFlight.help)
    var maxInFlight: String?
    @Option(
        name: .customLong(SettingTable.maxInFlightBytes.name), parsing: .unconditional,
        help: SettingTable.maxInFlightBytes.help)
    var maxInFlightBytes: String?
    @Option(
        name: .customLong(SettingTable.producerStallMs.name), parsing: .unconditional,
        help: SettingTable.producerStallMs.help)
    var producerStallMs: String?

    /// The limits from the flags, the environment and the settings file, over the defaults.
    func resolve(_ sources: SettingsSources) throws -> DeliveryLimits {
        var limits = DeliveryLimits()
        if let v = try sources.read(SettingTable.tombstones, tombstones) { limits.tombstones = v }
        if let v = try sources.read(SettingTable.maxMessageBytes, maxMessageBytes) { limits.maxMessageBytes = v }
        if let v = try sources.read(SettingTable.maxInFlight, maxInFlight) { limits.maxInFlight = v }
        if let v = try sources.read(SettingTable.maxInFlightBytes, maxInFlightBytes) { limits.maxInFlightBytes = v }
        if let v = try sources.read(SettingTable.producerStallMs, producerStallMs) { limits.producerStallMs = v }
        return limits
    }
}
