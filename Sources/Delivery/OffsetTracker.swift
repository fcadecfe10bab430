public import Kafka

/// Which input offsets are done, per partition, how far each partition may be committed, and how far the group
/// coordinator confirmed it is.
///
/// An offset is committable only when it and every offset before it on its partition is done (its record or dead
/// letter acknowledged, or it was skipped): at-least-once, in order. A commit counts only once the coordinator
/// confirms it; a commit that fails is sent again after a growing backoff until it is confirmed or the partition is
/// revoked. A partition revoked before its done offsets were confirmed is remembered, so that when it comes back
/// the worker resumes where it really was instead of reading those messages again.
///
/// Partitions are `Partition`s; an offset travels with its partition as a `Position`, e.g. a message's `position`. Times are
/// `ContinuousClock` instants, passed in so that tests can drive them.
public struct OffsetTracker: Sendable {
    struct PartitionState: Sendable {
        /// Offsets started and not yet done, in ascending order.
        var pending: [Int64] = []
        var pendingStart = 0
        /// Done offsets still waiting on an earlier pending one.
        var doneOutOfOrder: Set<Int64> = []
        /// The next offset to commit when nothing is pending (highest done + 1).
        var next: Int64?
        /// The offset the coordinator last confirmed.
        var committed: Int64?
        /// A commit sent and not yet answered: its offset and when it was sent.
        var requested: (offset: Int64, at: ContinuousClock.Instant)?
        /// Failed commits in a row, and when the next attempt is due after the last failure.
        var failures = 0
        var retryAt: ContinuousClock.Instant?
        /// Since when `next` has been ahead of `committed` (nil while they agree).
        var behindSince: ContinuousClock.Instant?
        /// The first offset begun, to count what is done before anything is confirmed.
        var first: Int64?
    }

    /// A revoked partition's done offset that no confirmed commit covers.
    struct Unconfirmed: Sendable {
        let next: Int64
        let at: ContinuousClock.Instant
    }

    /// First and largest wait before a failed commit is sent again.
    public static let retryBackoff: (first: Duration, max: Duration) = (.milliseconds(500), .seconds(10))
    /// A commit with no answer for this long is sent again.
    static let requestTimeout: Duration = .seconds(30)
    /// How long a revoked partition's unconfirmed offset is kept for its return.
    static let unconfirmedKept: Duration = .seconds(600)

    private var partitions: [Partition: PartitionState] = [:]
    private var unconfirmed: [Partition: Unconfirmed] = [:]

    public init() {}

    /// Records that the message at `position` was consumed and is in progress.
    public mutating func begin(_ position: Position) {
        let key = position.partition, offset = position.offset
        partitions[key, default: PartitionState()].pending.append(offset)
        if partitions[key]!.first == nil { partitions[key]!.first = offset }
    }

    /// Records that the message at `position` is done.
    public mutating func complete(_ position: Position, now: ContinuousClock.Instant = .now) {
        let key = position.partition, offset = position.offset
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
            if state.behindSince == nil, state.next != state.committed { state.behindSince = now }
        } else {
            state.doneOutOfOrder.insert(offset)
        }
        partitions[key] = state
    }

    /// Offsets to commit now (the next offset to read): partitions whose done offset is not confirmed, with no
    /// commit of it awaiting an answer and no retry backoff running; with `all`, every partition whose done offset
    /// is not confirmed (a last commit before a partition is given up).
    public func committable(now: ContinuousClock.Instant = .now, all: Bool = false)
        -> [Position]
    {
        partitions.compactMap { key, state in
            guard let next = state.next, next != state.committed else { return nil }
            let offset = key.at(next)
            if all { return offset }
            if let retryAt = state.retryAt, now < retryAt { return nil }
            if let r = state.requested, r.offset == next, now - r.at < Self.requestTimeout { return nil }
            return offset
        }.sorted { $0.partition < $1.partition }
    }

    /// Notes that commits of these offsets were sent.
    public mutating func requested(_ offsets: [Position], now: ContinuousClock.Instant = .now) {
        for o in offsets { partitions[o.partition]?.requested = (o.offset, now) }
    }

    /// The coordinator confirmed `committed`'s offset for its partition.
    public mutating func confirmed(_ committed: Position, now: ContinuousClock.Instant = .now) {
        let key = committed.partition, offset = committed.offset
        if let u = unconfirmed[key], u.next <= offset { unconfirmed[key] = nil }
        guard var state = partitions[key] else { return }
        state.committed = max(state.committed ?? offset, offset)
        if let r = state.requested, r.offset <= offset { state.requested = nil }
        state.failures = 0
        state.retryAt = nil
        state.behindSince = state.next == nil || state.next == state.committed ? nil : (state.behindSince ?? now)
        partitions[key] = state
    }

    /// The commit of `sent`'s offset failed; returns the wait before it is sent again.
    @discardableResult
    public mutating func failed(_ sent: Position, now: ContinuousClock.Instant = .now) -> Duration {
        let key = sent.partition, offset = sent.offset
        guard var state = partitions[key] else { return .zero }
        if let r = state.requested, r.offset == offset { state.requested = nil }
        state.failures += 1
        let wait = Self.backoff(failures: state.failures)
        state.retryAt = now + wait
        partitions[key] = state
        return wait
    }

    /// The wait before the next attempt after `failures` failed commits in a row: doubling from the first backoff.
    static func backoff(failures: Int) -> Duration {
        let (first, most) = retryBackoff
        let doublings = min(max(failures - 1, 0), 16)
        return min(most, first * (1 << doublings))
    }

    /// The next offset to read once everything done so far is committed (nil before any offset of the partition is done).
    public func nextOffset(_ partition: Partition) -> Int64? {
        partitions[partition]?.next
    }

    /// The first offset begun on a partition since it was assigned: where its consumer started, so every input
    /// before it is done (committed by the group, or by this worker before the partition went away).
    public func firstOffset(_ partition: Partition) -> Int64? {
        partitions[partition]?.first
    }

    /// The offset the coordinator last confirmed for a partition.
    public func committedOffset(_ partition: Partition) -> Int64? {
        partitions[partition]?.committed
    }

    /// Done messages no confirmed commit covers yet, and for how many seconds the commit has been behind.
    public func uncommitted(_ partition: Partition, now: ContinuousClock.Instant = .now) -> (
        messages: Int64, seconds: Double
    ) {
        guard let s = partitions[partition], let next = s.next,
            let since = s.behindSince
        else { return (0, 0) }
        let messages = max(0, next - (s.committed ?? s.first ?? next))
        return (messages, (now - since) / .seconds(1))
    }

    /// Offsets still in progress across all partitions.
    public var inProgress: Int {
        partitions.values.reduce(0) { $0 + ($1.pending.count - $1.pendingStart) - $1.doneOutOfOrder.count }
    }

    /// In-progress count for one partition.
    public func inProgress(_ partition: Partition) -> Int {
        guard let s = partitions[partition] else { return 0 }
        return (s.pending.count - s.pendingStart) - s.doneOutOfOrder.count
    }

    /// Forgets a partition (after it was revoked); returns how many of its offsets were still in progress. A done
    /// offset the coordinator never confirmed is kept for `resumeOffset` should the partition come back.
    @discardableResult
    public mutating func remove(_ partition: Partition, now: ContinuousClock.Instant = .now) -> Int {
        let n = inProgress(partition)
        if let s = partitions[partition], let next = s.next, next != s.committed {
            unconfirmed[partition] = Unconfirmed(next: next, at: now)
        }
        partitions[partition] = nil
        return n
    }

    /// Where a partition coming back should resume: the done offset it was revoked with when no confirmed commit
    /// covers it (so its messages are not read again), kept for ten minutes; nil to resume at the committed offset.
    public func resumeOffset(_ partition: Partition, now: ContinuousClock.Instant = .now) -> Int64? {
        guard let u = unconfirmed[partition],
            now - u.at < Self.unconfirmedKept
        else { return nil }
        return u.next
    }

    /// A partition resumed at `resumed`'s offset (done there already): it is committed from there on.
    public mutating func resumed(_ resumed: Position, now: ContinuousClock.Instant = .now) {
        let key = resumed.partition, offset = resumed.offset
        unconfirmed[key] = nil
        var state = partitions[key] ?? PartitionState()
        if state.next == nil {
            state.next = offset
            state.behindSince = now
        }
        partitions[key] = state
    }

    /// Revoked partitions whose done offsets no confirmed commit covers (what a commit on revoke failed to save).
    public var unconfirmedCount: Int { unconfirmed.count }
}
