/// Where a response came from: a file, a Kafka topic/partition/offset, or the URL a gateway fetched it from.
public struct RecordSource: Sendable, Equatable {
    public var file: String?
    public var topic: String?
    public var partition: Int?
    public var offset: Int64?
    /// Message timestamp in milliseconds since the epoch.
    public var timestampMs: Int64?
    /// The message key as text, when it is valid UTF-8.
    public var key: String?
    /// The URL the response was fetched from (a navigation state compiled on request by `gateway --origin`).
    public var origin: String?

    public init(
        file: String? = nil, topic: String? = nil, partition: Int? = nil, offset: Int64? = nil,
        timestampMs: Int64? = nil, key: String? = nil, origin: String? = nil
    ) {
        self.origin = origin
        self.file = file
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.timestampMs = timestampMs
        self.key = key
    }
}
