public import Delivery

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

    public var description: String {
        "consumed=\(consumed) published=\(published) dead-lettered=\(deadLettered) skipped=\(skipped) in-flight=\(inFlight)"
    }
}
