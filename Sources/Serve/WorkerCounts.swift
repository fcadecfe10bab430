public import Delivery
import Logging

/// The service's accounting: every consumed message ends as published, dead-lettered or skipped.
public struct WorkerCounts: Sendable, Equatable, CustomStringConvertible {
    public var consumed = 0
    /// How the consumed messages that are settled ended.
    public var settled = SettlementCounts()

    public init() {}

    /// Records and tombstones published.
    public var published: Int { settled.published + settled.tombstoned }
    public var deadLettered: Int { settled.deadLettered }
    public var skipped: Int { settled.skipped }

    /// Consumed messages not yet accounted for (0 once drained).
    public var inFlight: Int { consumed - published - deadLettered - skipped }

    /// The counts as log metadata (the "stopped" line's).
    var metadata: Logger.Metadata {
        [
            "consumed": .stringConvertible(consumed), "published": .stringConvertible(published),
            "dead-lettered": .stringConvertible(deadLettered), "skipped": .stringConvertible(skipped),
            "in-flight": .stringConvertible(inFlight),
        ]
    }

    public var description: String {
        "consumed=\(consumed) published=\(published) dead-lettered=\(deadLettered) skipped=\(skipped) in-flight=\(inFlight)"
    }
}
