package import CRdKafka

/// A librdkafka error: its code and text, and whether it is fatal or worth retrying.
public struct KafkaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// librdkafka's `rd_kafka_resp_err_t` value.
    public let code: Code
    /// librdkafka's name for the code, e.g. `_MSG_TIMED_OUT` or `TOPIC_ALREADY_EXISTS`.
    public let name: String
    public let message: String
    public let isFatal: Bool
    public let isRetriable: Bool

    public init(code: Code, name: String, message: String, isFatal: Bool = false, isRetriable: Bool = false) {
        self.code = code
        self.name = name
        self.message = message
        self.isFatal = isFatal
        self.isRetriable = isRetriable
    }

    /// An error for a response code, with librdkafka's own text unless `message` is given.
    package init(_ err: rd_kafka_resp_err_t, message: String? = nil) {
        self.code = Code(err)
        self.name = String(cString: rd_kafka_err2name(err))
        self.message = message ?? String(cString: rd_kafka_err2str(err))
        self.isFatal = err == RD_KAFKA_RESP_ERR__FATAL
        self.isRetriable = Self.retriableCodes.contains(Code(err))
    }

    /// Takes ownership of an `rd_kafka_error_t` and destroys it.
    init(consuming error: OpaquePointer) {
        let err = rd_kafka_error_code(error)
        self.code = Code(err)
        self.name = String(cString: rd_kafka_error_name(error))
        self.message = String(cString: rd_kafka_error_string(error))
        self.isFatal = rd_kafka_error_is_fatal(error) != 0
        self.isRetriable = rd_kafka_error_is_retriable(error) != 0
        rd_kafka_error_destroy(error)
    }

    /// A configuration problem (no librdkafka code).
    package static func configuration(_ message: String) -> KafkaError {
        KafkaError(code: .invalidArgument, name: "_INVALID_ARG", message: message)
    }

    /// `_TIMED_OUT`: `message` says what did not happen in time; worth trying again unless said otherwise.
    public static func timedOut(_ message: String, isRetriable: Bool = true) -> KafkaError {
        KafkaError(
            code: .timedOut, name: "_TIMED_OUT", message: message,
            isRetriable: isRetriable)
    }

    /// The topic a subscription waits for, when this is the consumer's error saying it is not available
    /// (librdkafka: `Subscribed topic not available: NAME: …`, `UNKNOWN_TOPIC_OR_PART`); else nil.
    public var missingSubscribedTopic: String? {
        let prefix = "Subscribed topic not available: "
        guard code == .unknownTopicOrPartition, message.hasPrefix(prefix) else { return nil }
        // Topic names hold no ':' (Kafka allows letters, digits, '.', '_' and '-').
        let topic = message.dropFirst(prefix.count).prefix { $0 != ":" }
        return topic.isEmpty ? nil : String(topic)
    }

    /// The same error, its message saying first what it was about (`context`).
    public func about(_ context: String) -> KafkaError {
        KafkaError(
            code: code, name: name, message: "\(context): \(message)", isFatal: isFatal, isRetriable: isRetriable)
    }

    static let retriableCodes: Set<Code> = [
        RD_KAFKA_RESP_ERR__TRANSPORT, RD_KAFKA_RESP_ERR__TIMED_OUT, RD_KAFKA_RESP_ERR__MSG_TIMED_OUT,
        RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION,
        RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE,
        RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS_AFTER_APPEND,
        RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN,
        RD_KAFKA_RESP_ERR_NETWORK_EXCEPTION, RD_KAFKA_RESP_ERR__QUEUE_FULL, RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART,
    ].reduce(into: Set<Code>()) { $0.insert(Code($1)) }

    public var description: String {
        "\(name) (\(code.rawValue)): \(message)\(isFatal ? " [fatal]" : "")\(isRetriable ? " [retriable]" : "")"
    }
}

extension KafkaError {
    /// A librdkafka error code (`rd_kafka_resp_err_t`), with names for those the service tells apart.
    public struct Code: RawRepresentable, Sendable, Hashable, ExpressibleByIntegerLiteral {
        public let rawValue: Int32

        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// librdkafka's number for it (`rd_kafka_resp_err_t`).
        public init(integerLiteral value: Int32) { rawValue = value }

        package init(_ err: rd_kafka_resp_err_t) { rawValue = err.rawValue }

        /// `_TIMED_OUT`: something did not happen in time.
        public static let timedOut = Code(RD_KAFKA_RESP_ERR__TIMED_OUT)
        /// `_ALL_BROKERS_DOWN`: no broker of the cluster can be reached.
        public static let allBrokersDown = Code(RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
        /// `_TRANSPORT`: a broker connection failed.
        public static let transport = Code(RD_KAFKA_RESP_ERR__TRANSPORT)
        /// `_PARTITION_EOF`: the consumer reached the end of a partition (with `reportsPartitionEnd`).
        public static let partitionEOF = Code(RD_KAFKA_RESP_ERR__PARTITION_EOF)
        /// `TOPIC_ALREADY_EXISTS`: a topic to create exists.
        public static let topicAlreadyExists = Code(RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
        /// `UNKNOWN_TOPIC_OR_PART`: the cluster does not have the topic or partition (yet).
        public static let unknownTopicOrPartition = Code(RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
        /// `_INVALID_ARG`: a configuration problem.
        public static let invalidArgument = Code(RD_KAFKA_RESP_ERR__INVALID_ARG)
    }
}
