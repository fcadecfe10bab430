public import Kafka
import LayoutKit

/// The headers each kind of output carries (record, change set, latest layout, tombstone; dead letters add theirs in
/// `DeadLetter`). Header names are the wire contract's: `Wire.Header` in LayoutKit, shared with the renderer kits.
public enum OutputHeaders {
    /// The input's headers that every output (record, change set, tombstone, dead letter) carries: all but this
    /// worker's own, with the trace context replaced by the message's (`trace`, from `MessageSpan.headers`).
    public static func carried(from message: KafkaMessage, trace: [KafkaHeader]) -> [KafkaHeader] {
        inputs(of: message, trace: trace) + trace
    }

    /// The input's own headers an output may carry: not this worker's, not the trace context (which is replaced).
    static func inputs(of message: KafkaMessage, trace: [KafkaHeader]) -> [KafkaHeader] {
        message.headers.filter { header in
            !header.name.hasPrefix(Wire.Header.ownPrefix) && header.name != Wire.Header.traceParent
                && header.name != Wire.Header.traceState && !trace.contains { $0.name == header.name }
        }
    }

    /// A tombstone's headers (on the output topic and a cleared page's change-set topic): what the input carries.
    public static func tombstone(for message: KafkaMessage, trace: [KafkaHeader]) -> [KafkaHeader] {
        carried(from: message, trace: trace)
    }

    /// Where an output came from: the input's topic, partition and offset (dead letters, change sets and latest
    /// layouts carry them; a latest layout's offset is its page's position, see `LayoutStore`).
    public static func source(of message: KafkaMessage) -> [KafkaHeader] {
        [
            KafkaHeader(Wire.Header.sourceTopic, text: message.topic),
            KafkaHeader(Wire.Header.sourcePartition, text: String(message.partition)),
            KafkaHeader(Wire.Header.sourceOffset, text: String(message.offset)),
        ]
    }

    /// When the input was written to Kafka (ms since the epoch), when it has a timestamp: change sets and latest
    /// layouts carry it, so the gateway can tell how fresh what it streams is.
    public static func sourceTime(of message: KafkaMessage) -> [KafkaHeader] {
        message.timestamp.map { [KafkaHeader(Wire.Header.sourceTimestamp, text: String($0))] } ?? []
    }

    /// A layout record's headers: the input's (with the message's trace headers) plus the record's content type and
    /// format version and the config that made it.
    public static func record(for message: KafkaMessage, trace: [KafkaHeader], config configHash: String)
        -> [KafkaHeader]
    {
        var headers = carried(from: message, trace: trace).filter {
            $0.name != Wire.Header.contentType && $0.name != Wire.Header.recordVersion
        }
        headers.append(KafkaHeader(Wire.Header.contentType, text: Wire.recordContentType))
        headers.append(KafkaHeader(Wire.Header.recordVersion, text: String(Wire.formatVersion)))
        headers.append(KafkaHeader(Wire.Header.config, text: configHash))
        return headers
    }

    /// A change set's headers: the input's (with the message's trace headers), the change set's content type, where
    /// and when its input was written, and the config that made its record.
    public static func changeSet(for message: KafkaMessage, trace: [KafkaHeader], config configHash: String)
        -> [KafkaHeader]
    {
        var headers = carried(from: message, trace: trace).filter { $0.name != Wire.Header.contentType }
        headers.append(KafkaHeader(Wire.Header.contentType, text: Wire.changeSetContentType))
        headers += source(of: message) + sourceTime(of: message)
        headers.append(KafkaHeader(Wire.Header.config, text: configHash))
        return headers
    }

    /// A page's latest layout's headers: where its input was (the page's position) and when it was written, the
    /// record's content type and the config that made it. A tombstone clearing a page's latest layout carries only
    /// where its input was.
    public static func latestLayout(for message: KafkaMessage, config configHash: String) -> [KafkaHeader] {
        source(of: message) + sourceTime(of: message) + [
            KafkaHeader(Wire.Header.contentType, text: Wire.recordContentType),
            KafkaHeader(Wire.Header.config, text: configHash),
        ]
    }

    /// The offset a latest layout (or its tombstone) was made from, from its `sourceOffset` header.
    public static func position(of message: KafkaMessage) -> Int64? {
        message.integerHeader(Wire.Header.sourceOffset)
    }
}
