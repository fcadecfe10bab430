import CRdKafka

/// A change of the partitions this consumer owns.
public enum RebalanceEvent: Sendable {
    /// Partitions were added (already assigned when the handler runs).
    case assigned([Partition])
    /// Partitions are being taken away: finish or abandon their work and commit now; they are unassigned right after.
    case revoked([Partition])
}

/// Carries the Swift rebalance handler into librdkafka's C callback (which runs inside `poll`, on the caller's thread).
final class RebalanceBox: ClientCallbacks {
    var handler: ((RebalanceEvent) -> Void)?
    /// Before partitions are assigned: those that should start elsewhere than at the group's committed offset.
    var startOffsets: (([Partition]) -> [Position])?
    /// The answers to asynchronous commits (served during `poll`).
    var commitHandler: (([CommitResult]) -> Void)?
    var lastError: KafkaError?

    /// Sets the offset of each partition of `list` that `startOffsets` moves.
    func applyStartOffsets(_ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) {
        guard let startOffsets else { return }
        for moved in startOffsets([Partition](UnsafePointer(list))) {
            rd_kafka_topic_partition_list_find(list, moved.topic, moved.partition.number)?.pointee.offset = moved.offset
        }
    }
}
