public import Kafka
import LayoutKit

/// The Kafka header names and content types the worker writes and reads: one definition for each, used by the
/// service, the command line and the tests.
public enum OutputHeader {
    // The names are the wire contract's (`Wire.Header` in LayoutKit, shared with the renderer kits).
    public static let contentType = Wire.Header.contentType
    public static let recordVersion = Wire.Header.recordVersion
    public static let ownPrefix = Wire.Header.ownPrefix
    public static let errorCode = Wire.Header.errorCode
    public static let errorMessage = Wire.Header.errorMessage
    public static let sourceTopic = Wire.Header.sourceTopic
    public static let sourcePartition = Wire.Header.sourcePartition
    public static let sourceOffset = Wire.Header.sourceOffset
    public static let sourceTimestamp = Wire.Header.sourceTimestamp
    public static let workerVersion = Wire.Header.workerVersion
    public static let deadLetterCut = Wire.Header.deadLetterCut
    public static let config = Wire.Header.config
    public static let traceParent = Wire.Header.traceParent
    public static let traceState = Wire.Header.traceState

    /// Where an output came from: the input's topic, partition and offset (dead letters, change sets and latest
    /// layouts carry them; a latest layout's offset is its page's position, see `LayoutStore`).
    public static func source(of message: KafkaMessage) -> [KafkaHeader] {
        [
            KafkaHeader(sourceTopic, text: message.topic),
            KafkaHeader(sourcePartition, text: String(message.partition)),
            KafkaHeader(sourceOffset, text: String(message.offset)),
        ]
    }

    /// When the input was written to Kafka (ms since the epoch), when it has a timestamp: change sets and latest
    /// layouts carry it, so the gateway can tell how fresh what it streams is.
    public static func sourceTime(of message: KafkaMessage) -> [KafkaHeader] {
        message.timestamp.map { [KafkaHeader(sourceTimestamp, text: String($0))] } ?? []
    }

    /// A layout record's headers: the input's (with the message's trace headers) plus the record's content type and
    /// format version and the config that made it.
    public static func record(for message: KafkaMessage, trace: [KafkaHeader], config configHash: String)
        -> [KafkaHeader]
    {
        var headers = DeadLetter.carried(message, trace: trace).filter {
            $0.name != contentType && $0.name != recordVersion
        }
        headers.append(KafkaHeader(contentType, text: recordContentType))
        headers.append(KafkaHeader(recordVersion, text: String(Wire.formatVersion)))
        headers.append(KafkaHeader(config, text: configHash))
        return headers
    }

    /// A change set's headers: the input's (with the message's trace headers), the change set's content type, where
    /// and when its input was written, and the config that made its record.
    public static func changeSet(for message: KafkaMessage, trace: [KafkaHeader], config configHash: String)
        -> [KafkaHeader]
    {
        var headers = DeadLetter.carried(message, trace: trace).filter { $0.name != contentType }
        headers.append(KafkaHeader(contentType, text: changeSetContentType))
        headers += source(of: message) + sourceTime(of: message)
        headers.append(KafkaHeader(config, text: configHash))
        return headers
    }

    /// A page's latest layout's headers: where its input was (the page's position) and when it was written, the
    /// record's content type and the config that made it. A tombstone clearing a page's latest layout carries only
    /// where its input was.
    public static func latestLayout(for message: KafkaMessage, config configHash: String) -> [KafkaHeader] {
        source(of: message) + sourceTime(of: message) + [
            KafkaHeader(contentType, text: recordContentType), KafkaHeader(config, text: configHash),
        ]
    }

    /// The offset a latest layout (or its tombstone) was made from, from its `sourceOffset` header.
    public static func position(of message: KafkaMessage) -> Int64? {
        message.integerHeader(sourceOffset)
    }

    /// `content-type` of a layout record (output and latest-layout topics) and of a change set; the media type of
    /// a change set (its `content-type` without parameters).
    public static let recordContentType = Wire.recordContentType
    public static let changeSetMediaType = Wire.changeSetMediaType
    public static let changeSetContentType = Wire.changeSetContentType
}
