/// The limits `serve` and `replay` share, with their one set of defaults: what is refused before compiling, how much
/// may wait unacknowledged, when a silent producer is replaced.
public struct DeliveryLimits: Sendable, Equatable {
    public var tombstones = TombstonePolicy.forward
    /// Inputs larger than this (key + value + headers) are dead-lettered without parsing.
    public var maxMessageBytes = 8 * 1024 * 1024
    /// Messages consumed but not yet acknowledged; above it, reading waits.
    public var maxInFlight = 2_000
    /// Input plus output bytes of the messages consumed but not yet acknowledged; above it, reading waits.
    /// Together with `queued.max.messages.kbytes` (librdkafka's fetch buffer) this bounds memory by bytes whatever
    /// the message size.
    public var maxInFlightBytes = 32 * 1024 * 1024
    /// With messages in flight and no acknowledgement for this long, the producer is replaced and they are sent again.
    public var producerStall: Duration = .seconds(10)

    public init() {}

    /// Whether either in-flight limit is reached.
    public func isFull(messages: Int, bytes: Int) -> Bool { messages >= maxInFlight || bytes >= maxInFlightBytes }
}
