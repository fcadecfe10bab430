extension DeliveryEngine {
    /// Why the output is blocked and when the next attempt is due.
    public struct Blocked: Sendable {
        public var reason: String
        public var since: ContinuousClock.Instant
        var nextAttempt: ContinuousClock.Instant
        var backoff: Duration
        /// Whether records were sent again since the backoff last grew.
        var retried = false

        init(reason: String, since: ContinuousClock.Instant, backoff: Duration) {
            (self.reason, self.since, self.nextAttempt, self.backoff) = (reason, since, since + backoff, backoff)
        }

        /// Blocks `current` for `reason`, or blocks it again: a failed round of re-sends doubles the wait (from
        /// `backoff.first` up to `backoff.max`), once per round. True when it was not blocked before.
        static func block(_ current: inout Blocked?, reason: String, backoff: (first: Duration, max: Duration)) -> Bool
        {
            let now = ContinuousClock.now
            guard var b = current else {
                current = Blocked(reason: reason, since: now, backoff: backoff.first)
                return true
            }
            if b.retried {
                b.backoff = min(b.backoff * 2, backoff.max)
                b.retried = false
            }
            b.reason = reason
            b.nextAttempt = now + b.backoff
            current = b
            return false
        }

        /// Lifts `current`: how many seconds it was blocked, nil when it was not.
        static func lift(_ current: inout Blocked?) -> Double? {
            guard let b = current else { return nil }
            current = nil
            return (ContinuousClock.now - b.since) / .seconds(1)
        }
    }
}
