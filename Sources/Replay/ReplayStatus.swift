public import Ops
import Synchronization

/// What a replay's ops endpoints read (`replay --http`): its stop signal, its phase, the loop's last turn and its
/// progress. Written by the replay's thread, read by the endpoints: atomics and one small lock only.
public final class ReplayStatus: Probed {
    /// Where a replay is.
    public enum Phase: Int, Sendable {
        /// Finding each partition's range (metadata, watermarks, times, the checkpoint).
        case starting
        /// Reading and recompiling its range.
        case reading
        /// Waiting for what is in flight to be acknowledged.
        case draining
        /// Done (or failed); the summary is printed next.
        case finished
    }

    /// Asked by a graceful shutdown (Ctrl-C, SIGTERM), read by the replay between messages.
    public let stop = StopSignal()
    private let phaseValue = Atomic<Int>(Phase.starting.rawValue)
    /// The replay loop's last turn.
    let heartbeat: Heartbeat
    private let readCount = Atomic<Int>(0)
    /// Messages in the range (nil with `--follow`: it has no end).
    private let totalCount = Atomic<Int>(-1)
    private let blockedReason = Mutex<String?>(nil)
    /// `stallLimit`: how long the loop may go without a turn before `/healthz` fails.
    public init(stallLimit: Duration = .seconds(Heartbeat.defaultStallLimitSeconds)) {
        heartbeat = Heartbeat(stallLimit: stallLimit)
    }

    public var phase: Phase { Phase(rawValue: phaseValue.load(ordering: .relaxed)) ?? .starting }

    // MARK: What the replay reports

    package func enter(_ phase: Phase) { phaseValue.store(phase.rawValue, ordering: .relaxed) }
    /// The loop made a turn, having read `read` messages of `total` (nil: no end).
    package func beat(read: Int, of total: Int?) {
        heartbeat.beat()
        readCount.store(read, ordering: .relaxed)
        totalCount.store(total ?? -1, ordering: .relaxed)
    }
    /// Why the output is blocked (records are retried until the cluster takes them), or nil.
    package func setOutputBlocked(_ reason: String?) { blockedReason.withLock { $0 = reason } }

    // MARK: What the ops endpoints read

    /// Ready while reading its range with the output taking records; otherwise why not.
    public var readiness: Probe {
        if stop.isRequested { return .failing("stopping") }
        if let reason = blockedReason.withLock({ $0 }) { return .failing("output blocked: \(reason)") }
        let read = readCount.load(ordering: .relaxed)
        let total = totalCount.load(ordering: .relaxed)
        switch phase {
        case .starting: return .failing("finding the range to replay")
        case .reading: return .passing("replaying; \(read) of \(total < 0 ? "∞" : String(total)) read")
        case .draining: return .passing("replaying; \(read) read, waiting for acknowledgements")
        case .finished: return .failing("finished; \(read) read")
        }
    }

    /// Alive: the loop turned within the stall limit (or has not started reading).
    public func liveness() -> Probe { heartbeat.liveness(of: "the replay loop") }
}
