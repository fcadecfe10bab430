public import Kafka
public import PageStore

/// The worker keeps each input partition's pages apart: its checkpoints and rebuilds are per input partition.
extension PageStore.Scope {
    /// The pages of input partition `input`.
    public init(_ input: Partition) { self = .partition(topic: input.topic, partition: input.number) }

    /// The input partition whose pages these are (nil for `whole`, the gateway's).
    public var input: Partition? {
        guard case .partition(let topic, let partition) = self else { return nil }
        return Partition(topic, partition)
    }
}

extension PageKey {
    /// Page `page` of the input partition `message` was read from.
    public init(_ page: String, of message: KafkaMessage) { self.init(page, in: .init(message.position.partition)) }
}
