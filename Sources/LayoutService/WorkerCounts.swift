/// The service's accounting: every consumed message ends as published, dead-lettered or skipped.
public struct WorkerCounts: Sendable, Equatable, CustomStringConvertible {
    public var consumed = 0
    public var published = 0
    public var deadLettered = 0
    public var skipped = 0

    public init() {}

    /// Consumed messages not yet accounted for (0 once drained).
    public var inFlight: Int { consumed - published - deadLettered - skipped }

    public var description: String {
        "consumed=\(consumed) published=\(published) dead-lettered=\(deadLettered) skipped=\(skipped) in-flight=\(inFlight)"
    }
}
