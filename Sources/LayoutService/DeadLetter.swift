public import Kafka

/// The headers a dead letter carries besides the original ones.
public enum DeadLetter {
    public static let errorCodeHeader = "layout-worker-error-code"
    public static let errorMessageHeader = "layout-worker-error-message"
    public static let sourceTopicHeader = "layout-worker-source-topic"
    public static let sourcePartitionHeader = "layout-worker-source-partition"
    public static let sourceOffsetHeader = "layout-worker-source-offset"
    public static let sourceTimestampHeader = "layout-worker-source-timestamp"
    public static let workerVersionHeader = "layout-worker-version"

    /// The original headers plus the error and source headers.
    public static func headers(for message: KafkaMessage, code: String, reason: String, version: String) -> [KafkaHeader] {
        var headers = message.headers
        headers.append(KafkaHeader(errorCodeHeader, text: code))
        headers.append(KafkaHeader(errorMessageHeader, text: String(reason.prefix(2000))))
        headers.append(KafkaHeader(sourceTopicHeader, text: message.topic))
        headers.append(KafkaHeader(sourcePartitionHeader, text: String(message.partition)))
        headers.append(KafkaHeader(sourceOffsetHeader, text: String(message.offset)))
        if let ts = message.timestamp { headers.append(KafkaHeader(sourceTimestampHeader, text: String(ts))) }
        headers.append(KafkaHeader(workerVersionHeader, text: version))
        return headers
    }
}
