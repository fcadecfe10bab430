import Synchronization

/// A loop's last turn, for its liveness probe: the loop beats, `/healthz` asks how long ago (a lock-free read from
/// the endpoints' threads). The worker's, the replay's and the gateway's feed's status each hold one.
public final class Heartbeat: Sendable {
    /// How long the loop may go without a turn before liveness fails.
    public let stallLimit: Duration
    /// The stall limit, in seconds, of a worker's or a replay's loop unless told.
    public static let defaultStallLimitSeconds = 90
    private let origin = ContinuousClock.now
    /// Nanoseconds from `origin` to the last turn, plus one (0: no turn yet).
    private let lastTurn = Atomic<Int64>(0)

    public init(stallLimit: Duration) { self.stallLimit = stallLimit }

    /// The loop made a turn.
    public func beat(at now: ContinuousClock.Instant = .now) {
        let (seconds, attoseconds) = (now - origin).components
        lastTurn.store(seconds * 1_000_000_000 + attoseconds / 1_000_000_000 + 1, ordering: .relaxed)
    }

    /// How long ago the loop last turned; nil before its first turn.
    public func idle(at now: ContinuousClock.Instant = .now) -> Duration? {
        let last = lastTurn.load(ordering: .relaxed)
        guard last > 0 else { return nil }
        return max(.zero, now - (origin + .nanoseconds(last - 1)))
    }

    /// Passing while the loop turned within the limit (or has not started); `loop` names it in the failure.
    public func liveness(of loop: String, at now: ContinuousClock.Instant = .now) -> Probe {
        guard let idle = idle(at: now) else { return .passing("ok") }
        guard idle <= stallLimit else {
            return .failing(
                "\(loop) has not turned for \(Int(idle / .seconds(1))) s (limit \(Int(stallLimit / .seconds(1))) s)")
        }
        return .passing("ok; last loop turn \(Int(idle / .milliseconds(1))) ms ago")
    }
}
