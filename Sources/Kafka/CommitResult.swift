import CRdKafka

/// What the group coordinator answered for one partition's offset commit.
public struct CommitResult: Sendable, Equatable {
    /// The partition and the offset that was to be committed (the next offset to read).
    public var position: Position
    /// Nil when the offset is committed.
    public var error: KafkaError?

    public init(position: Position, error: KafkaError?) {
        self.position = position
        self.error = error
    }

    /// The results in a librdkafka partition list: each partition's own error, else the request's (`err`).
    /// `_NO_OFFSET` (nothing to commit) is no error.
    static func results(_ err: rd_kafka_resp_err_t, _ list: UnsafePointer<rd_kafka_topic_partition_list_t>?)
        -> [CommitResult]
    {
        guard let list else { return [] }
        return (0..<Int(list.pointee.cnt)).map { i in
            let e = list.pointee.elems[i]
            let code = e.err != RD_KAFKA_RESP_ERR_NO_ERROR ? e.err : err
            let failed = code != RD_KAFKA_RESP_ERR_NO_ERROR && code != RD_KAFKA_RESP_ERR__NO_OFFSET
            return CommitResult(
                position: Position(Partition(String(cString: e.topic), e.partition), e.offset),
                error: failed ? KafkaError(code) : nil)
        }
    }
}

/// Collects the results of one synchronous commit (`rd_kafka_commit_queue` calls back before it returns).
final class CommitResultBox {
    var results: [CommitResult]?
}
