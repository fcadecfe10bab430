/// A step a loop takes at most once per `interval`: a flush, the lag figures, a progress line, a checkpoint.
public struct Periodic: Sendable {
    public let interval: Duration
    private var last: ContinuousClock.Instant

    /// Due first `interval` after `start`.
    public init(every interval: Duration, from start: ContinuousClock.Instant = .now) {
        self.interval = interval
        last = start
    }

    /// Whether `interval` has passed since the step was last taken.
    public func hasElapsed(at now: ContinuousClock.Instant = .now) -> Bool { now - last >= interval }

    /// The step was taken at `now`.
    public mutating func taken(at now: ContinuousClock.Instant = .now) { last = now }

    /// Whether the step is due; if so it counts as taken now.
    public mutating func isDue(at now: ContinuousClock.Instant = .now) -> Bool {
        guard hasElapsed(at: now) else { return false }
        last = now
        return true
    }
}
