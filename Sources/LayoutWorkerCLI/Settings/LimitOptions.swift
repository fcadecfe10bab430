import ArgumentParser
import Delivery

/// The limits `serve` and `replay` share (`DeliveryLimits`): one declaration, one set of defaults.
struct LimitOptions: ParsableArguments {
    @Option(SettingTable.tombstones) var tombstones: String?
    @Option(SettingTable.maxMessageBytes)
    var maxMessageBytes: String?
    @Option(SettingTable.maxInFlight)
    var maxInFlight: String?
    @Option(SettingTable.maxInFlightBytes)
    var maxInFlightBytes: String?
    @Option(SettingTable.producerStallMs)
    var producerStallMs: String?

    /// The limits from the flags, the environment and the settings file, over the defaults.
    func resolve(_ sources: SettingsSources) throws -> DeliveryLimits {
        var limits = DeliveryLimits()
        limits.tombstones = try sources.read(SettingTable.tombstones, tombstones)
        limits.maxMessageBytes = try sources.read(SettingTable.maxMessageBytes, maxMessageBytes)
        limits.maxInFlight = try sources.read(SettingTable.maxInFlight, maxInFlight)
        limits.maxInFlightBytes = try sources.read(SettingTable.maxInFlightBytes, maxInFlightBytes)
        limits.producerStall = try sources.read(SettingTable.producerStallMs, producerStallMs)
        return limits
    }
}
