public import Kafka
import LayoutKit
import SplitMix
public import W3CTraceContext

/// The W3C trace context of one message's processing (consume → compile → produce): a child span of the input's
/// `traceparent`, or the root of a new trace (not sampled) when the input has none. The outputs a message causes
/// (its record, change set, tombstones, dead letter) all carry the same child `traceparent`; `tracestate` is kept.
///
/// The child's span id is derived from the parent span and the message's topic, partition and offset, so every
/// output of one message, and every reprocessing of it, names the same span.
public struct MessageTrace: Sendable {
    /// The input's context, when it carried a valid one.
    public let parent: TraceContext?
    /// The context of this message's processing.
    public let context: TraceContext

    public init(of message: KafkaMessage) {
        var parent: TraceContext?
        if let value = message.header(Wire.Header.traceParent) {
            let state = message.header(Wire.Header.traceState).map { String(decoding: $0, as: UTF8.self) }
            parent = try? TraceContext(
                traceParentHeaderValue: String(decoding: value, as: UTF8.self), traceStateHeaderValue: state)
        }
        self.parent = parent
        var generator = SplitMix64(seed: Self.seed(message, parent: parent))
        context = TraceContext(
            traceID: parent?.traceID ?? TraceID.random(using: &generator),
            spanID: SpanID.random(using: &generator),
            flags: parent?.flags ?? TraceFlags(),
            state: parent?.state ?? TraceState())
    }

    /// `traceparent` (and `tracestate` when there is one) for an output.
    public var headers: [KafkaHeader] {
        var out = [KafkaHeader(Wire.Header.traceParent, text: context.traceParentHeaderValue)]
        if let state = context.traceStateHeaderValue, !state.isEmpty {
            out.append(KafkaHeader(Wire.Header.traceState, text: state))
        }
        return out
    }

    /// FNV-1a over the parent span (or trace) and the message's coordinates.
    private static func seed(_ message: KafkaMessage, parent: TraceContext?) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        if let parent { for b in parent.traceParentHeaderValue.utf8 { mix(b) } }
        for b in message.topic.utf8 { mix(b) }
        withUnsafeBytes(of: message.partition.littleEndian) { $0.forEach(mix) }
        withUnsafeBytes(of: message.offset.littleEndian) { $0.forEach(mix) }
        return hash
    }
}
