import Delivery
import Kafka

/// What a replay has done so far: the summary, the offsets done (for the checkpoint), what was read and which
/// partitions reached the end of their range. A reference, so delivery callbacks count into it.
final class ReplayTally {
    var summary: ReplaySummary
    var checkpoint: ReplayCheckpoint
    var tracker = OffsetTracker()
    var read = 0
    let metrics: ReplayMetrics?

    init(summary: ReplaySummary, checkpoint: ReplayCheckpoint, metrics: ReplayMetrics?) {
        self.summary = summary
        self.checkpoint = checkpoint
        self.metrics = metrics
    }

    private func index(_ p: Int32) -> Int { summary.partitions.firstIndex { $0.partition == p }! }

    /// Takes `m` (inside its partition's range) into the replay.
    func take(_ m: KafkaMessage) {
        let i = index(m.partition)
        if summary.partitions[i].first == nil { summary.partitions[i].first = m.offset }
        summary.partitions[i].last = m.offset
        read += 1
        metrics?.read.increment()
        tracker.begin(m.position)
    }

    /// Counts a message by how it ended (or, in a dry run, would end).
    func settled(_ m: KafkaMessage, _ settlement: DeliveryEngine.Settlement) {
        summary.partitions[index(m.partition)].settled.add(settlement)
        metrics?.settled(settlement)
        tracker.complete(m.position)
    }
}
