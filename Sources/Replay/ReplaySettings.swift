public import Delivery
public import Kafka
import Ops

/// Everything `layout-worker replay` needs besides the mapping config.
public struct ReplaySettings: Sendable {
    public var kafka: KafkaConfiguration
    public var fromTopic: String
    /// Nil replays every partition.
    public var partitions: [Int32]?
    public var range: ReplayRange
    /// `--start` and `--stop` as written (`ago:6h`, not the time it gave), recorded in the checkpoint.
    public var rangeAsWritten = (start: "beginning", stop: "end")
    /// Output topic; unused in a dry run.
    public var toTopic: String?
    /// Dead-letter topic; nil means `<to-topic>.dead-letters`.
    public var deadLetterTopic: String?
    public var dryRun = false
    /// Records per second at most; nil is unlimited.
    public var rate: Double?
    /// The checkpoint file; a dry run neither reads nor writes it.
    public var checkpointPath: String?
    /// Keep tailing after the end offsets read at the start.
    public var follow = false
    /// Size limit, tombstone policy, in-flight limits and producer stall: shared with `serve`.
    public var limits = DeliveryLimits()
    public var progressIntervalSeconds = 2.0
    public var version = WorkerVersion.current

    public init(kafka: KafkaConfiguration, fromTopic: String, range: ReplayRange) {
        self.kafka = kafka
        self.fromTopic = fromTopic
        self.range = range
    }
}
