package import CRdKafka

/// A librdkafka error: its code and text, and whether it is fatal or worth retrying.
public struct KafkaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// librdkafka's `rd_kafka_resp_err_t` value.
    public let code: Int32
    /// librdkafka's name for the code, e.g. `_MSG_TIMED_OUT` or `TOPIC_ALREADY_EXISTS`.
    public let name: String
    public let message: String
    public let isFatal: Bool
    public let isRetriable: Bool

    public init(code: Int32, name: String, message: String, isFatal: Bool = false, isRetriable: Bool = false) {
        self.code = code
        self.name = name
        self.message = message
        self.isFatal = isFatal
        self.isRetriable = isRetriable
    }

    /// An error for a response code, with librdkafka's own text unless `message` is given.
    package init(_ err: rd_kafka_resp_err_t, message: String? = nil) {
        self.code = err.rawValue
        self.name = String(cString: rd_kafka_err2name(err))
        self.message = message ?? String(cString: rd_kafka_err2str(err))
        self.isFatal = err == RD_KAFKA_RESP_ERR__FATAL
        self.isRetriable = Self.retriableCodes.contains(err.rawValue)
    }

    /// Takes ownership of an `rd_kafka_error_t` and destroys it.
    init(consuming error: OpaquePointer) {
        let err = rd_kafka_error_code(error)
        self.code = err.rawValue
        self.name = String(cString: rd_kafka_error_name(error))
        self.message = String(cString: rd_kafka_error_string(error))
        self.isFatal = rd_kafka_error_is_fatal(error) != 0
        self.isRetriable = rd_kafka_error_is_retriable(error) != 0
        rd_kafka_error_destroy(error)
    }

    /// A configuration problem (no librdkafka code).
    package static func configuration(_ message: String) -> KafkaError {
        KafkaError(code: RD_KAFKA_RESP_ERR__INVALID_ARG.rawValue, name: "_INVALID_ARG", message: message)
    }

    /// `_TIMED_OUT`: `message` says what did not happen in time; worth trying again unless said otherwise.
    public static func timedOut(_ message: String, isRetriable: Bool = true) -> KafkaError {
        KafkaError(
            code: RD_KAFKA_RESP_ERR__TIMED_OUT.rawValue, name: "_TIMED_OUT", message: message,
            isRetriable: isRetriable)
    }

    /// `_TIMED_OUT`'s code.
    public static let timedOutCode = RD_KAFKA_RESP_ERR__TIMED_OUT.rawValue
    /// `_ALL_BROKERS_DOWN`: no broker of the cluster can be reached.
    public static let allBrokersDown = RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN.rawValue
    /// `_TRANSPORT`: a broker connection failed.
    public static let transport = RD_KAFKA_RESP_ERR__TRANSPORT.rawValue
    /// `_PARTITION_EOF`: the consumer reached the end of a partition (with `reportsPartitionEnd`).
    public static let partitionEOF = RD_KAFKA_RESP_ERR__PARTITION_EOF.rawValue
    /// `TOPIC_ALREADY_EXISTS`: a topic to create exists.
    public static let topicAlreadyExists = RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS.rawValue

    static let retriableCodes: Set<Int32> = [
        RD_KAFKA_RESP_ERR__TRANSPORT, RD_KAFKA_RESP_ERR__TIMED_OUT, RD_KAFKA_RESP_ERR__MSG_TIMED_OUT,
        RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION,
        RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE,
        RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS_AFTER_APPEND,
        RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN,
        RD_KAFKA_RESP_ERR_NETWORK_EXCEPTION, RD_KAFKA_RESP_ERR__QUEUE_FULL, RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART,
    ].reduce(into: Set<Int32>()) { $0.insert($1.rawValue) }

    public var description: String {
        "\(name) (\(code)): \(message)\(isFatal ? " [fatal]" : "")\(isRetriable ? " [retriable]" : "")"
    }
}
