import CRdKafka

/// A topic partition, as a key: which partition, without an offset. With an offset it is a `Position`.
public struct Partition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var topic: String
    public var number: Int32

    public init(_ topic: String, _ number: Int32) {
        self.topic = topic
        self.number = number
    }

    /// `topic[number]`.
    public var description: String { "\(topic)[\(number)]" }

    /// By topic, then number.
    public static func < (a: Partition, b: Partition) -> Bool {
        (a.topic, a.number) < (b.topic, b.number)
    }

    /// This partition at `offset`.
    public func at(_ offset: Int64) -> Position { Position(self, offset) }
}

/// A place in a partition: the partition and an offset (a message's, the next one to read, or one of `Offset`'s).
public struct Position: Sendable, Hashable, CustomStringConvertible {
    public var partition: Partition
    public var offset: Int64

    public init(_ partition: Partition, _ offset: Int64) {
        self.partition = partition
        self.offset = offset
    }

    public var topic: String { partition.topic }

    /// `topic[number]`, then `@offset` when there is one (`@beginning`, `@end` for those special offsets).
    public var description: String {
        switch offset {
        case 0...: "\(partition)@\(offset)"
        case Offset.beginning: "\(partition)@beginning"
        case Offset.end: "\(partition)@end"
        default: "\(partition)"
        }
    }
}

/// Offsets that stand for a place rather than name one.
public enum Offset {
    /// The partition's first message still held.
    public static let beginning = Int64(RD_KAFKA_OFFSET_BEGINNING)
    /// The offset the next message written will have.
    public static let end = Int64(RD_KAFKA_OFFSET_END)
    /// None (no committed offset, no position).
    public static let invalid = Int64(RD_KAFKA_OFFSET_INVALID)
}

extension [Partition] {
    /// A librdkafka list of these partitions (no offsets); the caller destroys it.
    func makeList() -> UnsafeMutablePointer<rd_kafka_topic_partition_list_t> {
        map { $0.at(Offset.invalid) }.makeList()
    }

    /// Copies a librdkafka partition list, without its offsets.
    init(_ list: UnsafePointer<rd_kafka_topic_partition_list_t>) {
        self = [Position](list).map(\.partition)
    }
}
