import CRdKafka

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A topic to create.
public struct NewTopic: Sendable {
    public var name: String
    public var partitions: Int32
    public var replicationFactor: Int32
    public var config: [String: String]

    public init(name: String, partitions: Int32, replicationFactor: Int32 = 1, config: [String: String] = [:]) {
        self.name = name
        self.partitions = partitions
        self.replicationFactor = replicationFactor
        self.config = config
    }
}

/// Topic administration and metadata.
public final class KafkaAdmin {
    private let handle: OpaquePointer
    private let callbacks: ClientCallbacks

    public init(configuration: KafkaConfiguration) throws(KafkaError) {
        callbacks = ClientCallbacks(configuration: configuration)
        let conf = try configuration.makeConf(callbacks: callbacks)
        var errstr = [CChar](repeating: 0, count: 512)
        guard let rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, &errstr, errstr.count) else {
            rd_kafka_conf_destroy(conf)
            throw .configuration("cannot create admin client: " + String(errorBuffer: errstr))
        }
        handle = rk
    }

    deinit { rd_kafka_destroy(handle) }

    /// Creates topics; returns each topic's error (nil when created). `TOPIC_ALREADY_EXISTS` is reported, not thrown.
    public func createTopics(_ topics: [NewTopic], timeoutMs: Int32 = 10_000) throws(KafkaError) -> [String:
        KafkaError?]
    {
        var errstr = [CChar](repeating: 0, count: 512)
        var newTopics: [OpaquePointer?] = []
        defer { newTopics.forEach { rd_kafka_NewTopic_destroy($0) } }
        for t in topics {
            guard let nt = rd_kafka_NewTopic_new(t.name, t.partitions, t.replicationFactor, &errstr, errstr.count)
            else {
                throw .configuration("topic \(t.name): " + String(errorBuffer: errstr))
            }
            for (k, v) in t.config { _ = rd_kafka_NewTopic_set_config(nt, k, v) }
            newTopics.append(nt)
        }
        let event = try request(RD_KAFKA_ADMIN_OP_CREATETOPICS, timeoutMs: timeoutMs) { options, queue in
            newTopics.withUnsafeMutableBufferPointer {
                rd_kafka_CreateTopics(handle, $0.baseAddress, $0.count, options, queue)
            }
        }
        defer { rd_kafka_event_destroy(event) }
        var count = 0
        let list = rd_kafka_event_CreateTopics_result(event).flatMap { rd_kafka_CreateTopics_result_topics($0, &count) }
        return Self.topicResults(list, count)
    }

    /// Each topic's error in an admin answer's topic results (nil: done).
    private static func topicResults(_ list: UnsafeMutablePointer<OpaquePointer?>?, _ count: Int) -> [String:
        KafkaError?]
    {
        var results: [String: KafkaError?] = [:]
        guard let list else { return results }
        for i in 0..<count {
            let r = list[i]
            let e = rd_kafka_topic_result_error(r)
            results[String(cString: rd_kafka_topic_result_name(r))] =
                e == RD_KAFKA_RESP_ERR_NO_ERROR
                ? nil : KafkaError(e, message: rd_kafka_topic_result_error_string(r).map { String(cString: $0) })
        }
        return results
    }

    /// Deletes topics; returns each topic's error (nil when deleted).
    public func deleteTopics(_ names: [String], timeoutMs: Int32 = 10_000) throws(KafkaError) -> [String: KafkaError?] {
        var list: [OpaquePointer?] = names.map { rd_kafka_DeleteTopic_new($0) }
        defer { list.forEach { rd_kafka_DeleteTopic_destroy($0) } }
        let event = try request(RD_KAFKA_ADMIN_OP_DELETETOPICS, timeoutMs: timeoutMs) { options, queue in
            list.withUnsafeMutableBufferPointer {
                rd_kafka_DeleteTopics(handle, $0.baseAddress, $0.count, options, queue)
            }
        }
        defer { rd_kafka_event_destroy(event) }
        var count = 0
        let results = rd_kafka_event_DeleteTopics_result(event).flatMap {
            rd_kafka_DeleteTopics_result_topics($0, &count)
        }
        return Self.topicResults(results, count)
    }

    /// A consumer group's state (e.g. `Stable`, `Empty`) and member count, as the broker describes it.
    public func describeGroup(_ group: String, timeoutMs: Int32 = 10_000) throws(KafkaError) -> (
        state: String, members: Int
    ) {
        // The classic group protocol's DescribeGroups (the protocol the worker's groups use): librdkafka's
        // DescribeConsumerGroups asks ConsumerGroupDescribe (KIP-848) first, which a broker may answer for a
        // classic group with no members (Tansu: "Stable, 0 members" for a group with one).
        var list: UnsafePointer<rd_kafka_group_list>?
        let err = rd_kafka_list_groups(handle, group, &list, timeoutMs)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
        guard let list else { throw KafkaError(RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND) }
        defer { rd_kafka_group_list_destroy(list) }
        guard list.pointee.group_cnt > 0, let info = list.pointee.groups?.pointee else {
            throw KafkaError(RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)
        }
        if info.err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(info.err) }
        return (info.state.map { String(cString: $0) } ?? "unknown", Int(info.member_cnt))
    }

    /// Runs one admin request of kind `op` (`AdminRequest.run` on this client).
    private func request(
        _ op: rd_kafka_admin_op_t, timeoutMs: Int32, send: (OpaquePointer?, OpaquePointer) -> Void
    ) throws(KafkaError) -> OpaquePointer {
        try AdminRequest.run(handle, op, timeoutMs: timeoutMs, send: send)
    }

    /// Each topic's id (KIP-516) as the brokers describe it; topics without one are left out.
    public func topicIDs(_ topics: [String], timeoutMs: Int32 = 10_000) throws(KafkaError) -> [String: String] {
        try AdminRequest.topicIDs(handle, topics, timeoutMs: timeoutMs)
    }

    /// `topic`'s configuration (name → value) as the brokers describe it; a broker may leave out defaults.
    public func topicConfig(_ topic: String, timeoutMs: Int32 = 5_000) throws(KafkaError) -> [String: String] {
        try AdminRequest.topicConfig(handle, topic, timeoutMs: timeoutMs)
    }

    /// The number of partitions of `topic`, or nil when the broker does not know it.
    public func partitionCount(topic: String, timeoutMs: Int32 = 5_000) throws(KafkaError) -> Int? {
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let err = rd_kafka_metadata(handle, 1, nil, &metadata, timeoutMs)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
        guard let metadata else { return nil }
        defer { rd_kafka_metadata_destroy(metadata) }
        for i in 0..<Int(metadata.pointee.topic_cnt) {
            let t = metadata.pointee.topics[i]
            if String(cString: t.topic) == topic && t.err == RD_KAFKA_RESP_ERR_NO_ERROR { return Int(t.partition_cnt) }
        }
        return nil
    }
}
