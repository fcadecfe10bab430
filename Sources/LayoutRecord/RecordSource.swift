/// Where a response came from: a file, or a Kafka topic/partition/offset.
public struct RecordSource: Sendable, Equatable {
    public var file: String?
    public var topic: String?
    public var partition: Int?
    public var offset: Int64?
    /// Message timestamp in milliseconds since the epoch.
    public var timestampMs: Int64?
    /// The message key as text, when it is valid UTF-8.
    public var key: String?

    public init(
        file: String? = nil, topic: String? = nil, partition: Int? = nil, offset: Int64? = nil,
        timestampMs: Int64? = nil, key: String? = nil
    ) {
        self.file = file
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.timestampMs = timestampMs
        self.key = key
    }
}
