import CRdKafka

/// What a producer's owner should do about a record that failed with a given error.
public enum ProduceDisposition: Sendable, Equatable {
    /// The producer is unusable (fatal, fenced, lost its producer id) or purged the record: make a new producer and
    /// send the record again. Nothing is wrong with the record.
    case replaceProducer
    /// The cluster refused this record for what it is (too large, rejected by the broker's validation): sending it
    /// again cannot succeed, so it belongs in the dead-letter topic.
    case rejectRecord
    /// Anything else (topic or partition missing, leader not available, timeouts, transport, authorization): the
    /// cluster may come back, so wait and send again.
    case wait

    /// How to handle a failure with `error`.
    public init(_ error: KafkaError) {
        if error.isFatal || Self.producerCodes.contains(error.code) {
            self = .replaceProducer
        } else if Self.recordCodes.contains(error.code) {
            self = .rejectRecord
        } else {
            self = .wait
        }
    }

    static let producerCodes: Set<KafkaError.Code> = Set(
        [
            RD_KAFKA_RESP_ERR__FATAL, RD_KAFKA_RESP_ERR__FENCED, RD_KAFKA_RESP_ERR_PRODUCER_FENCED,
            RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH, RD_KAFKA_RESP_ERR_UNKNOWN_PRODUCER_ID,
            RD_KAFKA_RESP_ERR_OUT_OF_ORDER_SEQUENCE_NUMBER, RD_KAFKA_RESP_ERR__PURGE_QUEUE,
            RD_KAFKA_RESP_ERR__PURGE_INFLIGHT,
            RD_KAFKA_RESP_ERR__INCONSISTENT, RD_KAFKA_RESP_ERR__GAPLESS_GUARANTEE,
        ].map(KafkaError.Code.init))

    static let recordCodes: Set<KafkaError.Code> = Set(
        [
            RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE, RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE,
            RD_KAFKA_RESP_ERR_INVALID_RECORD,
            RD_KAFKA_RESP_ERR_INVALID_MSG, RD_KAFKA_RESP_ERR_INVALID_TIMESTAMP,
        ].map(KafkaError.Code.init))
}

extension KafkaError {
    /// Whether the cluster or the client refused a record for its size.
    public var isRecordTooLarge: Bool {
        code == KafkaError.Code(RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE)
            || code == KafkaError.Code(RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE)
    }

    /// Whether the cluster does not know the topic (or partition), or the producer has seen it missing.
    public var isUnknownTopic: Bool {
        code == KafkaError.Code(RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
            || code == KafkaError.Code(RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC)
    }

    /// Whether a local produce call failed only because librdkafka's queue is full (poll, then try again).
    public var isQueueFull: Bool { code == KafkaError.Code(RD_KAFKA_RESP_ERR__QUEUE_FULL) }
}
