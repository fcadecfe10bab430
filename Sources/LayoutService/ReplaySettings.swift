public import Kafka

/// Everything `layout-worker replay` needs besides the mapping config.
public struct ReplaySettings: Sendable {
    public var kafka: KafkaConfiguration
    public var fromTopic: String
    /// Nil replays every partition.
    public var partitions: [Int32]?
    public var range: ReplayRange
    /// Output topic; unused in a dry run.
    public var toTopic: String?
    /// Dead-letter topic; nil means `<to-topic>.dead-letters`.
    public var deadLetterTopic: String?
    public var dryRun = false
    /// Records per second at most; nil is unlimited.
    public var rate: Double?
    public var checkpointPath: String?
    /// Keep tailing after the end offsets read at the start.
    public var follow = false
    public var tombstones = ServeSettings.TombstonePolicy.forward
    public var maxMessageBytes = 8 * 1024 * 1024
    public var progressIntervalSeconds = 2.0
    public var version = WorkerVersion.current
    /// Messages and input + output bytes consumed but not yet acknowledged; above either, reading waits.
    public var maxInFlight = 2_000
    public var maxInFlightBytes = 32 * 1024 * 1024
    /// With records unacknowledged and no report for this long, the producer is replaced.
    public var producerStallMs = 10_000

    public init(kafka: KafkaConfiguration, fromTopic: String, range: ReplayRange) {
        self.kafka = kafka
        self.fromTopic = fromTopic
        self.range = range
    }
}
