import CRdKafka

/// One partition of one topic, without a place in it: what sets and dictionaries of partitions are keyed by
/// (`TopicPartition` carries an offset too, so two of them at different offsets are different values).
public struct Partition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var topic: String
    public var partition: Int32

    public init(_ topic: String, _ partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    /// `topic[partition]`.
    public var description: String { "\(topic)[\(partition)]" }

    /// By topic, then partition.
    public static func < (a: Partition, b: Partition) -> Bool {
        (a.topic, a.partition) < (b.topic, b.partition)
    }

    /// This partition at `offset`.
    public func at(_ offset: Int64) -> TopicPartition { TopicPartition(topic, partition, offset: offset) }
}

extension TopicPartition {
    /// The partition, without the offset.
    public var partitionID: Partition { Partition(topic, partition) }
}

extension KafkaMessage {
    /// The partition the message is on.
    public var partitionID: Partition { Partition(topic, partition) }
}

extension [Partition] {
    /// A librdkafka list of these partitions (no offsets); the caller destroys it.
    func makeList() -> UnsafeMutablePointer<rd_kafka_topic_partition_list_t> {
        map { $0.at(TopicPartition.invalid) }.makeList()
    }
}
