public import Kafka
public import PageStore

/// The worker keeps each input partition's pages apart: its checkpoints and rebuilds are per input partition.
extension PageStore.Scope {
    /// The pages of input partition `input`.
    public init(_ input: Partition) { self = .partition(topic: input.topic, partition: input.partition) }

    /// The pages of input partition `input` (its offset is not part of it).
    public init(_ input: TopicPartition) { self = .partition(topic: input.topic, partition: input.partition) }
}

extension PageKey {
    /// Page `page` of the input partition `message` was read from.
    public init(_ page: String, of message: KafkaMessage) {
        self.init(page, in: .partition(topic: message.topic, partition: message.partition))
    }
}
