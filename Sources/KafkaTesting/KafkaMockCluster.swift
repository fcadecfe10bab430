import CRdKafka
public import Kafka

/// librdkafka's mock cluster: `brokers` Kafka brokers on loopback ports inside this process, with their own
/// topics, groups, offsets and idempotent producers, and knobs a single real broker does not have: move a
/// partition's leader, take a broker down and up, make the next requests of a kind fail with given errors.
/// For tests and local fault drills only; clients of any process connect through `bootstrapServers`.
public final class KafkaMockCluster {
    /// Kafka protocol request kinds whose answers can be made to fail (their `ApiKey`).
    public enum Request: Int16, Sendable {
        case produce = 0
        case fetch = 1
        case listOffsets = 2
        case metadata = 3
        case offsetCommit = 8
        case offsetFetch = 9
        case findCoordinator = 10
        case joinGroup = 11
        case heartbeat = 12
        case syncGroup = 14
        case initProducerID = 22
    }

    private let host: OpaquePointer
    private let cluster: OpaquePointer
    /// `host:port,…` of every broker.
    public let bootstrapServers: String
    /// Broker ids, 1 to the number of brokers.
    public let brokerIDs: [Int32]

    /// Starts a cluster of `brokers` brokers; the first group rebalance waits `initialRebalanceDelayMs`.
    public init(brokers: Int = 3, initialRebalanceDelayMs: Int32 = 100) throws(KafkaError) {
        guard let conf = rd_kafka_conf_new() else { throw .configuration("rd_kafka_conf_new failed") }
        var errstr = [CChar](repeating: 0, count: 512)
        // The host client only owns the cluster; it never connects anywhere.
        _ = rd_kafka_conf_set(conf, "bootstrap.servers", "", &errstr, errstr.count)
        _ = rd_kafka_conf_set(conf, "log_level", "0", &errstr, errstr.count)
        guard let rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, &errstr, errstr.count) else {
            rd_kafka_conf_destroy(conf)
            throw .configuration("cannot create the mock cluster's host client: " + String(errorBuffer: errstr))
        }
        guard let mc = rd_kafka_mock_cluster_new(rk, Int32(brokers)) else {
            rd_kafka_destroy(rk)
            throw .configuration("cannot create a mock cluster of \(brokers) brokers")
        }
        host = rk
        cluster = mc
        bootstrapServers = String(cString: rd_kafka_mock_cluster_bootstraps(mc))
        brokerIDs = (1...Int32(brokers)).map { $0 }
        rd_kafka_mock_group_initial_rebalance_delay_ms(mc, initialRebalanceDelayMs)
    }

    deinit {
        rd_kafka_mock_cluster_destroy(cluster)
        rd_kafka_destroy(host)
    }

    /// Creates a topic (replicated on every broker, leaders spread over them).
    public func createTopic(_ name: String, partitions: Int32) throws(KafkaError) {
        let err = rd_kafka_mock_topic_create(cluster, name, partitions, Int32(brokerIDs.count))
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
    }

    /// Makes `broker` the leader of a partition (clients learn it from their next metadata or a
    /// `NOT_LEADER_OR_FOLLOWER` answer).
    public func setLeader(topic: String, partition: Int32, broker: Int32) throws(KafkaError) {
        let err = rd_kafka_mock_partition_set_leader(cluster, topic, partition, broker)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
    }

    /// Makes `broker` the coordinator of a consumer group.
    public func setGroupCoordinator(group: String, broker: Int32) throws(KafkaError) {
        let err = rd_kafka_mock_coordinator_set(cluster, "group", group, broker)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
    }

    /// Takes a broker down (its connections are closed and new ones refused) or brings it back. Leadership does
    /// not move by itself: see `setLeader`.
    public func setBroker(_ broker: Int32, up: Bool) throws(KafkaError) {
        let err =
            up ? rd_kafka_mock_broker_set_up(cluster, broker) : rd_kafka_mock_broker_set_down(cluster, broker)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
    }

    /// The next `errors.count` requests of this kind (to any broker) are answered with these errors, in order.
    /// Errors are librdkafka codes, e.g. `KafkaMockCluster.notLeaderOrFollower`.
    public func failNext(_ request: Request, with errors: [Int32]) {
        let codes = errors.map { rd_kafka_resp_err_t(rawValue: $0) }
        codes.withUnsafeBufferPointer {
            rd_kafka_mock_push_request_errors_array(cluster, request.rawValue, $0.count, $0.baseAddress)
        }
    }

    /// Forgets every error still queued for this kind of request.
    public func clearErrors(_ request: Request) { rd_kafka_mock_clear_request_errors(cluster, request.rawValue) }

    public static let notLeaderOrFollower = RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION.rawValue
    public static let requestTimedOut = RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT.rawValue
    public static let coordinatorNotAvailable = RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE.rawValue
    public static let illegalGeneration = RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION.rawValue
    public static let rebalanceInProgress = RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS.rawValue
    public static let unknownProducerID = RD_KAFKA_RESP_ERR_UNKNOWN_PRODUCER_ID.rawValue
}
