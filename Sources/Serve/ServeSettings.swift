public import Delivery
public import Kafka
import Ops
public import PageState

/// Everything `layout-worker serve` needs besides the mapping config.
public struct ServeSettings: Sendable {
    public var kafka: KafkaConfiguration
    /// Input topic names; a name starting with `^` is a regular expression.
    public var inputTopics: [String]
    public var outputTopic: String
    public var deadLetterTopic: String
    public var groupID: String
    /// Size limit, tombstone policy, in-flight limits and producer stall: shared with `replay`.
    public var limits = DeliveryLimits()
    /// Messages read per batch (compiled in parallel, published in order).
    public var batchSize = defaultBatchSize
    public static let defaultBatchSize = 256
    public var commitInterval = Duration.seconds(1)
    /// Upper bound for draining, committing and leaving the group on SIGTERM/SIGINT.
    public var shutdownTimeout = defaultShutdownTimeout
    public static let defaultShutdownTimeout = Duration.seconds(20)
    /// Consumer properties applied on top of `kafka.properties` (session timeouts, assignment strategy...).
    public var consumerProperties: [String: String] = [:]
    /// Producer properties applied on top of `kafka.properties`.
    public var producerProperties: [String: String] = [:]
    /// Stop after this many messages are accounted for (for demos and tests); nil runs until stopped.
    public var stopAfter: Int?
    /// Benchmark baseline only: publish each input unchanged instead of compiling it (same loop, same clients).
    public var passThrough = false
    /// Change sets and latest layouts per page (`serve --changes-topic`); nil leaves them off.
    public var changes: ChangeSettings?
    /// Where the crash-loop breaker keeps what is being compiled (it must survive a restart of the process: an
    /// `emptyDir` in Kubernetes); nil turns the breaker off.
    public var crashStateDirectory: String?
    /// Debug builds only: the worker dies while compiling a message with this key (the breaker's fault hook).
    public var debugCrashKey: String?
    /// The worker version written into dead letters.
    public var version = WorkerVersion.current

    /// Consumer properties the worker sets unless given. librdkafka's prefetch buffer is 8 MiB (its default is
    /// 64 MiB), so a backlog of large messages does not fill memory ahead of the worker; and it fetches again 20 ms
    /// after that buffer was full (its default waits 1 s, which with a small buffer halved throughput on 45 KB pages).
    /// `fetch.wait.max.ms` 100 (librdkafka's is 500): a broker that answers an empty fetch only when that wait ends
    /// held a new input up to 500 ms (produce → change set p50 145 ms against 20 ms, `make bench-e2e`); Kafka
    /// answers as soon as data arrives, so the cost there is idle fetches: 10 a second per broker instead of 2.
    public static let defaultConsumerProperties = [
        "auto.offset.reset": "earliest", "partition.assignment.strategy": "cooperative-sticky",
        "queued.max.messages.kbytes": "8192", "fetch.queue.backoff.ms": "20", "statistics.interval.ms": "5000",
        "fetch.wait.max.ms": "100",
    ]
    /// Producer properties the worker sets unless told otherwise.
    public static let defaultProducerProperties = ["statistics.interval.ms": "5000"]

    /// The consumer's client settings: `consumerProperties` over `kafka.properties` (the worker's defaults,
    /// `defaultConsumerProperties`, apply where both are silent).
    public var consumerKafka: KafkaConfiguration {
        var config = kafka
        for (k, v) in consumerProperties { config.properties[k] = v }
        return config
    }

    /// The producer's client settings: `producerProperties` over `kafka.properties` over `defaultProducerProperties`.
    public var producerKafka: KafkaConfiguration {
        var config = kafka
        for (k, v) in Self.defaultProducerProperties where config.properties[k] == nil { config.properties[k] = v }
        for (k, v) in producerProperties { config.properties[k] = v }
        return config
    }

    public init(
        kafka: KafkaConfiguration, inputTopics: [String], outputTopic: String, deadLetterTopic: String, groupID: String
    ) {
        self.kafka = kafka
        self.inputTopics = inputTopics
        self.outputTopic = outputTopic
        self.deadLetterTopic = deadLetterTopic
        self.groupID = groupID
    }
}
