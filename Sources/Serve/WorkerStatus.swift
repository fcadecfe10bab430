public import Ops
import Synchronization

/// State shared between the worker thread, the ops endpoints and the lifecycle: atomics and small locks only.
public final class WorkerStatus: Probed {
    /// Asked by a graceful shutdown (`ThreadedWork`), read by the loop.
    public let stop = StopSignal()
    private let joinedFlag = Atomic<Bool>(false)
    private let rebuildingFlag = Atomic<Bool>(false)
    private let assignedCount = Atomic<Int>(0)
    /// The worker loop's last turn.
    public let heartbeat: Heartbeat
    private let blockedReason = Mutex<String?>(nil)
    private let unreachableReason = Mutex<String?>(nil)
    private let lastConnectionError = Mutex<String?>(nil)
    private let breakerOff = Mutex<String?>(nil)
    private let storeProblem = Mutex<String?>(nil)
    private let missingTopics = Mutex<Set<String>>([])

    /// `stallLimitSeconds`: the longest the loop may stand still before liveness fails (outside state rebuilds).
    public init(stallLimitSeconds: Int = Heartbeat.defaultStallLimitSeconds) {
        heartbeat = Heartbeat(stallLimit: .seconds(max(1, stallLimitSeconds)))
    }

    /// Asks the worker to stop fetching, drain and leave.
    public func requestStop() { stop.request() }
    public var stopRequested: Bool { stop.isRequested }

    // MARK: What the worker reports

    /// The worker loop made a turn.
    package func beat() { heartbeat.beat() }
    /// The worker is a member of its group (set on its first assignment, even an empty one).
    package func setJoined(_ joined: Bool) { joinedFlag.store(joined, ordering: .relaxed) }
    /// The worker is reading the latest layouts of newly assigned partitions (its loop stands still meanwhile).
    package func setRebuilding(_ rebuilding: Bool) { rebuildingFlag.store(rebuilding, ordering: .relaxed) }
    /// Why the output is blocked (the cluster does not take records and they are being retried), or nil.
    package func setOutputBlocked(_ reason: String?) { blockedReason.withLock { $0 = reason } }
    /// Why no broker can be reached (librdkafka's last reason), or nil once one is.
    package func setUnreachable(_ reason: String?) { unreachableReason.withLock { $0 = reason } }
    /// A broker connection failed (librdkafka's words); kept as the reason to give when all brokers are down.
    package func noteConnectionError(_ reason: String) {
        lastConnectionError.withLock { $0 = reason }
        unreachableReason.withLock { if $0 != nil { $0 = reason } }
    }
    /// No broker can be reached: the reason is the last connection error, else librdkafka's summary.
    package func setAllBrokersDown(_ summary: String) {
        let last = lastConnectionError.withLock { $0 }
        setUnreachable(last.map { "\(summary); last error: \($0)" } ?? summary)
    }
    package func setAssigned(_ n: Int) { assignedCount.store(n, ordering: .relaxed) }
    /// Why the crash-loop breaker is off, or nil while it works.
    package func setCrashBreakerOff(_ reason: String?) { breakerOff.withLock { $0 = reason } }
    /// An input topic the subscription waits for does not exist (the consumer said so), or, with `false`, now has
    /// partitions assigned.
    package func setInputMissing(_ topic: String, _ missing: Bool) {
        missingTopics.withLock { if missing { $0.insert(topic) } else { $0.remove(topic) } }
    }
    /// Why the page store on disk is not used or not written (the worker goes on from memory), or nil while it is.
    package func setPageStoreProblem(_ reason: String?) { storeProblem.withLock { $0 = reason } }

    // MARK: What the ops endpoints read

    public var isJoined: Bool { joinedFlag.load(ordering: .relaxed) }
    public var outputBlocked: String? { blockedReason.withLock { $0 } }
    public var unreachable: String? { unreachableReason.withLock { $0 } }
    /// Partitions currently assigned.
    public var assignedPartitions: Int { assignedCount.load(ordering: .relaxed) }
    /// Why the crash-loop breaker is off (readiness still passes, with a warning), or nil.
    public var crashBreakerOff: String? { breakerOff.withLock { $0 } }
    /// Input topics the consumer said do not exist, sorted.
    public var missingInputs: [String] { missingTopics.withLock { $0.sorted() } }
    /// Why the page store is off or failing (readiness still passes, with a warning), or nil.
    public var pageStoreProblem: String? { storeProblem.withLock { $0 } }

    /// Ready to take traffic: a member of the group (with or without partitions), the brokers reachable, the output
    /// taking records and no state rebuild under way. Otherwise the reason.
    public var readiness: Probe {
        if stopRequested { return .failing("stopping") }
        if let reason = outputBlocked { return .failing("output blocked: \(reason)") }
        if let reason = unreachable { return .failing("brokers unreachable: \(reason)") }
        if rebuildingFlag.load(ordering: .relaxed) { return .failing("rebuilding latest layouts") }
        let missing = missingInputs
        let absent =
            missing.isEmpty
            ? nil
            : "input topic\(missing.count > 1 ? "s" : "") \(missing.joined(separator: ", ")) do\(missing.count > 1 ? "" : "es") not exist (yet): create \(missing.count > 1 ? "them" : "it"), or check --input"
        if !isJoined { return .failing(absent ?? "not yet a member of the consumer group") }
        var ready = "ready; \(assignedPartitions) partition(s) assigned"
        if let absent { ready += "; warning: \(absent)" }
        if let off = crashBreakerOff { ready += "; warning: the crash-loop breaker is off (\(off))" }
        if let problem = pageStoreProblem { ready += "; warning: working from memory: \(problem)" }
        return .passing(ready)
    }

    /// Alive: the worker loop turned within the stall limit (or is rebuilding state, or has not started yet).
    public func liveness() -> Probe { liveness(at: .now) }

    /// Liveness at `now`.
    package func liveness(at now: ContinuousClock.Instant) -> Probe {
        guard !rebuildingFlag.load(ordering: .relaxed) else { return .passing("ok") }
        return heartbeat.liveness(of: "the worker loop", at: now)
    }
}
