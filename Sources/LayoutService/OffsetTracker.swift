/// Which input offsets are done, per partition, and how far each partition may be committed.
///
/// An offset is committable only when it and every offset before it on its partition is done
/// (its record or dead letter acknowledged, or it was skipped): at-least-once, in order.
public struct OffsetTracker: Sendable {
    struct PartitionKey: Hashable, Sendable {
        let topic: String
        let partition: Int32
    }

    struct PartitionState: Sendable {
        /// Offsets started and not yet done, in ascending order.
        var pending: [Int64] = []
        var pendingStart = 0
        /// Done offsets still waiting on an earlier pending one.
        var doneOutOfOrder: Set<Int64> = []
        /// The next offset to commit when nothing is pending (highest done + 1).
        var next: Int64?
        /// The offset last committed.
        var committed: Int64?
    }

    private var partitions: [PartitionKey: PartitionState] = [:]

    public init() {}

    /// Records that `offset` of a partition was consumed and is in progress.
    public mutating func begin(topic: String, partition: Int32, offset: Int64) {
        let key = PartitionKey(topic: topic, partition: partition)
        partitions[key, default: PartitionState()].pending.append(offset)
    }

    /// Records that `offset` is done.
    public mutating func complete(topic: String, partition: Int32, offset: Int64) {
        let key = PartitionKey(topic: topic, partition: partition)
        guard var state = partitions[key] else { return }
        if state.pendingStart < state.pending.count && state.pending[state.pendingStart] == offset {
            state.pendingStart += 1
            state.next = offset + 1
            // Earlier-done offsets that now follow directly.
            while state.pendingStart < state.pending.count,
                state.doneOutOfOrder.remove(state.pending[state.pendingStart]) != nil
            {
                state.next = state.pending[state.pendingStart] + 1
                state.pendingStart += 1
            }
            if state.pendingStart > 1024 && state.pendingStart * 2 > state.pending.count {
                state.pending.removeFirst(state.pendingStart)
                state.pendingStart = 0
            }
        } else {
            state.doneOutOfOrder.insert(offset)
        }
        partitions[key] = state
    }

    /// Offsets to commit (next offset to read) for partitions that moved since the last `markCommitted`.
    public func committable() -> [(topic: String, partition: Int32, offset: Int64)] {
        partitions.compactMap { key, state in
            guard let next = state.next, next != state.committed else { return nil }
            return (key.topic, key.partition, next)
        }.sorted { ($0.topic, $0.partition) < ($1.topic, $1.partition) }
    }

    /// The next offset to read once everything done so far is committed (nil before any offset of the partition is done).
    public func nextOffset(topic: String, partition: Int32) -> Int64? {
        partitions[PartitionKey(topic: topic, partition: partition)]?.next
    }

    /// Notes that these offsets were committed.
    public mutating func markCommitted(_ offsets: [(topic: String, partition: Int32, offset: Int64)]) {
        for o in offsets { partitions[PartitionKey(topic: o.topic, partition: o.partition)]?.committed = o.offset }
    }

    /// Offsets still in progress across all partitions.
    public var inProgress: Int {
        partitions.values.reduce(0) { $0 + ($1.pending.count - $1.pendingStart) - $1.doneOutOfOrder.count }
    }

    /// In-progress count for one partition.
    public func inProgress(topic: String, partition: Int32) -> Int {
        guard let s = partitions[PartitionKey(topic: topic, partition: partition)] else { return 0 }
        return (s.pending.count - s.pendingStart) - s.doneOutOfOrder.count
    }

    /// Forgets a partition (after it was revoked); returns how many of its offsets were still in progress.
    @discardableResult
    public mutating func remove(topic: String, partition: Int32) -> Int {
        let n = inProgress(topic: topic, partition: partition)
        partitions[PartitionKey(topic: topic, partition: partition)] = nil
        return n
    }
}
