import Synchronization

/// The origin's circuit breaker: after `failures` origin faults in a row (timeouts, refused or reset connections,
/// 5xx) it opens for `cooldown`, and every request fails at once meanwhile; then one request is let through, and
/// its outcome closes the breaker or opens it again.
final class OriginBreaker: Sendable {
    private struct State {
        var failuresInARow = 0
        var openUntil: ContinuousClock.Instant?
        var trialUnderWay = false
    }

    let failures: Int
    let cooldown: Duration
    private let state = Mutex(State())

    init(failures: Int, cooldown: Duration) {
        self.failures = max(1, failures)
        self.cooldown = cooldown
    }

    /// Whether a request may go to the origin now; when not, how long until one may.
    func admit(now: ContinuousClock.Instant = .now) -> Duration? {
        state.withLock { s in
            guard let until = s.openUntil else { return nil }
            if now < until { return until - now }
            if s.trialUnderWay { return .milliseconds(100) }
            s.trialUnderWay = true
            return nil
        }
    }

    /// The outcome of an admitted request: a fault, or not.
    func record(fault: Bool, now: ContinuousClock.Instant = .now) {
        state.withLock { s in
            s.trialUnderWay = false
            if fault {
                s.failuresInARow += 1
                if s.failuresInARow >= failures || s.openUntil != nil { s.openUntil = now + cooldown }
            } else {
                s = State()
            }
        }
    }

    var isOpen: Bool { state.withLock { s in s.openUntil.map { ContinuousClock.now < $0 } ?? false } }
}
