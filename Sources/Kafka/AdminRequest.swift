import CRdKafka

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One admin request on a client handle (the admin client's, or a consumer's: librdkafka takes admin requests on
/// any handle). `send` starts it with its options (`timeoutMs` for the request and, for topic creation, the
/// operation) and a queue of its own; returns the answer's event (the caller destroys it), its request-level error
/// thrown.
enum AdminRequest {
    static func run(
        _ handle: OpaquePointer, _ op: rd_kafka_admin_op_t, timeoutMs: Int32,
        send: (OpaquePointer?, OpaquePointer) -> Void
    ) throws(KafkaError) -> OpaquePointer {
        var errstr = [CChar](repeating: 0, count: 512)
        let queue = rd_kafka_queue_new(handle)!
        defer { rd_kafka_queue_destroy(queue) }
        let options = rd_kafka_AdminOptions_new(handle, op)
        defer { rd_kafka_AdminOptions_destroy(options) }
        _ = rd_kafka_AdminOptions_set_request_timeout(options, timeoutMs, &errstr, errstr.count)
        if op == RD_KAFKA_ADMIN_OP_CREATETOPICS {
            _ = rd_kafka_AdminOptions_set_operation_timeout(options, timeoutMs, &errstr, errstr.count)
        }
        send(options, queue)
        guard let event = rd_kafka_queue_poll(queue, timeoutMs + 5_000) else {
            throw KafkaError(RD_KAFKA_RESP_ERR__TIMED_OUT)
        }
        let err = rd_kafka_event_error(event)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            let message = rd_kafka_event_error_string(event).map { String(cString: $0) }
            rd_kafka_event_destroy(event)
            throw KafkaError(err, message: message)
        }
        return event
    }

    /// Each of `topics`' id (KIP-516) as the brokers describe it, base64 as Kafka's tools print it; a topic the
    /// brokers give no id for (an all-zero one, or a cluster without a controller to ask) or do not know is left
    /// out.
    static func topicIDs(_ handle: OpaquePointer, _ topics: [String], timeoutMs: Int32) throws(KafkaError)
        -> [String: String]
    {
        guard !topics.isEmpty, try hasController(handle, timeoutMs: timeoutMs) else { return [:] }
        let names = topics.map { strdup($0) }
        defer { names.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = names.map { UnsafePointer($0) }
        let collection = pointers.withUnsafeMutableBufferPointer {
            rd_kafka_TopicCollection_of_topic_names($0.baseAddress, $0.count)
        }
        defer { rd_kafka_TopicCollection_destroy(collection) }
        let event = try run(handle, RD_KAFKA_ADMIN_OP_DESCRIBETOPICS, timeoutMs: timeoutMs) { options, queue in
            rd_kafka_DescribeTopics(handle, collection, options, queue)
        }
        defer { rd_kafka_event_destroy(event) }
        var ids: [String: String] = [:]
        guard let result = rd_kafka_event_DescribeTopics_result(event) else { return ids }
        var count = 0
        guard let list = rd_kafka_DescribeTopics_result_topics(result, &count) else { return ids }
        for i in 0..<count {
            guard let description = list[i], rd_kafka_TopicDescription_error(description) == nil,
                let uuid = rd_kafka_TopicDescription_topic_id(description),
                rd_kafka_Uuid_most_significant_bits(uuid) != 0 || rd_kafka_Uuid_least_significant_bits(uuid) != 0,
                let text = rd_kafka_Uuid_base64str(uuid)
            else { continue }
            ids[String(cString: rd_kafka_TopicDescription_name(description))] = String(cString: text)
        }
        return ids
    }

    /// Whether the cluster's metadata names a controller among its brokers (DescribeTopics goes to it; librdkafka's
    /// mock cluster names broker 0, which it does not have). Without metadata within `timeoutMs`, a retriable
    /// timeout.
    private static func hasController(_ handle: OpaquePointer, timeoutMs: Int32) throws(KafkaError) -> Bool {
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let err = rd_kafka_metadata(handle, 0, nil, &metadata, timeoutMs)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else { throw KafkaError(err) }
        defer { rd_kafka_metadata_destroy(metadata) }
        let controller = rd_kafka_controllerid(handle, 0)
        return controller >= 0
            && (0..<Int(metadata.pointee.broker_cnt)).contains { metadata.pointee.brokers[$0].id == controller }
    }

    /// `topic`'s configuration as the brokers describe it (name → value; a broker may leave out what is at its
    /// default). A topic the brokers do not know throws its error.
    static func topicConfig(_ handle: OpaquePointer, _ topic: String, timeoutMs: Int32) throws(KafkaError)
        -> [String: String]
    {
        var resources: [OpaquePointer?] = [rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic)]
        defer { resources.forEach { rd_kafka_ConfigResource_destroy($0) } }
        let event = try run(handle, RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, timeoutMs: timeoutMs) { options, queue in
            resources.withUnsafeMutableBufferPointer {
                rd_kafka_DescribeConfigs(handle, $0.baseAddress, $0.count, options, queue)
            }
        }
        defer { rd_kafka_event_destroy(event) }
        var config: [String: String] = [:]
        var count = 0
        guard let result = rd_kafka_event_DescribeConfigs_result(event),
            let described = rd_kafka_DescribeConfigs_result_resources(result, &count), count > 0,
            let resource = described[0]
        else { return config }
        let err = rd_kafka_ConfigResource_error(resource)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError(err, message: rd_kafka_ConfigResource_error_string(resource).map { String(cString: $0) })
        }
        var entries = 0
        guard let list = rd_kafka_ConfigResource_configs(resource, &entries) else { return config }
        for i in 0..<entries {
            guard let entry = list[i], let name = rd_kafka_ConfigEntry_name(entry) else { continue }
            config[String(cString: name)] = rd_kafka_ConfigEntry_value(entry).map { String(cString: $0) }
        }
        return config
    }
}
