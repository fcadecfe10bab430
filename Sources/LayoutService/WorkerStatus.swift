import Synchronization

/// State shared between the worker thread, the ops listener and the lifecycle: all atomics.
public final class WorkerStatus: Sendable {
    private let stopFlag = Atomic<Bool>(false)
    private let readyFlag = Atomic<Bool>(false)
    private let assignedCount = Atomic<Int>(0)
    private let blockedReason = Mutex<String?>(nil)

    public init() {}

    /// Asks the worker to stop fetching, drain and leave.
    public func requestStop() { stopFlag.store(true, ordering: .sequentiallyConsistent) }
    public var stopRequested: Bool { stopFlag.load(ordering: .sequentiallyConsistent) }

    /// Connected to the brokers and owning at least one partition.
    public var isReady: Bool { readyFlag.load(ordering: .relaxed) }
    func setReady(_ ready: Bool) { readyFlag.store(ready, ordering: .relaxed) }

    /// Why the output is blocked (the cluster does not take records and they are being retried), or nil.
    public var outputBlocked: String? { blockedReason.withLock { $0 } }
    func setOutputBlocked(_ reason: String?) { blockedReason.withLock { $0 = reason } }

    /// Partitions currently assigned.
    public var assignedPartitions: Int { assignedCount.load(ordering: .relaxed) }
    func setAssigned(_ n: Int) { assignedCount.store(n, ordering: .relaxed) }
}
