public import Kafka
import LayoutDiff
import LayoutRecord

/// The Kafka header names and content types the worker writes and reads: one definition for each, used by the
/// service, the command line and the tests.
public enum OutputHeader {
    /// The media type of a record, change set or latest layout.
    public static let contentType = "content-type"
    /// The layout record format's version, on every record.
    public static let recordVersion = "layout-record-version"
    /// Every header this worker writes starts with this; incoming headers with it are not carried, so a re-driven
    /// dead letter does not stack old error codes ahead of the new one.
    public static let ownPrefix = "layout-worker-"
    /// A dead letter's code (`CompileFailure.Code`, `DeadLetter.Code`) and its message: what, where and why.
    public static let errorCode = "layout-worker-error-code"
    public static let errorMessage = "layout-worker-error-message"
    /// Where a dead letter's input came from; the source topic also marks latest layouts with their input topic.
    public static let sourceTopic = "layout-worker-source-topic"
    public static let sourcePartition = "layout-worker-source-partition"
    public static let sourceOffset = "layout-worker-source-offset"
    public static let sourceTimestamp = "layout-worker-source-timestamp"
    /// The worker version that wrote a dead letter.
    public static let workerVersion = "layout-worker-version"
    /// Present when a dead letter had to be cut to fit: what was dropped or shortened.
    public static let deadLetterCut = "layout-worker-dead-letter-cut"
    /// The config a record or change set was made with: XXH64 of the config file, 16 hex digits.
    public static let config = "layout-worker-config"
    /// W3C trace context.
    public static let traceParent = "traceparent"
    public static let traceState = "tracestate"

    /// Where an output came from: the input's topic, partition and offset (dead letters, change sets and latest
    /// layouts carry them; a latest layout's offset is its page's position, see `LayoutStore`).
    public static func source(of message: KafkaMessage) -> [KafkaHeader] {
        [
            KafkaHeader(sourceTopic, text: message.topic),
            KafkaHeader(sourcePartition, text: String(message.partition)),
            KafkaHeader(sourceOffset, text: String(message.offset)),
        ]
    }

    /// The offset a latest layout (or its tombstone) was made from, from its `sourceOffset` header.
    public static func position(of message: KafkaMessage) -> Int64? {
        message.header(sourceOffset).flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
    }

    /// `content-type` of a layout record (output and latest-layout topics).
    public static let recordContentType = "application/vnd.layout-record+json; version=\(LayoutRecord.formatVersion)"
    /// The media type of a change set (its `content-type` without parameters).
    public static let changeSetMediaType = "application/vnd.layout-change-set+json"
    /// `content-type` of a change set.
    public static let changeSetContentType = "\(changeSetMediaType); version=\(ChangeSet.formatVersion)"
}
