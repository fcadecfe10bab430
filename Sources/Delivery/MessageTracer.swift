public import Kafka
public import Tracing

/// Starts one span per input message with the tracer it is given (an OpenTelemetry tracer bootstrapped by the
/// embedding program, for example): a `consumer` span named `process <topic>`, a child of the context the tracer
/// extracts from the input's headers, with OpenTelemetry's messaging attributes. The tracer injects the span's
/// context into the outputs' headers. With no tracer (swift-distributed-tracing's `NoOpTracer`), or one that injects
/// nothing, the outputs carry a W3C child context of the input's (`MessageTrace`).
public struct MessageTracer: Sendable {
    /// OpenTelemetry's semantic-convention attribute names this worker sets (messaging, Kafka), and its own.
    public enum Attribute {
        public static let system = "messaging.system"
        public static let operationType = "messaging.operation.type"
        public static let operationName = "messaging.operation.name"
        public static let destination = "messaging.destination.name"
        public static let partition = "messaging.destination.partition.id"
        public static let consumerGroup = "messaging.consumer.group.name"
        public static let offset = "messaging.kafka.offset"
        public static let messageKey = "messaging.kafka.message.key"
        public static let tombstone = "messaging.kafka.message.tombstone"
        public static let bodySize = "messaging.message.body.size"
        public static let errorType = "error.type"
        /// How the message was settled: published, tombstoned, skipped, dead-lettered (or abandoned).
        public static let outcome = "layout_worker.outcome"
    }

    let tracer: (any Tracer)?
    let group: String?

    /// Spans from `tracer` (none when it is `NoOpTracer`), naming `group` as the consumer group (nil for `replay`).
    public init(tracer: any Tracer, group: String?) {
        self.tracer = tracer is NoOpTracer ? nil : tracer
        self.group = group
    }

    /// Starts the span of `message` (at `start`, when its processing began earlier, e.g. a batch's compile).
    public func start(_ message: KafkaMessage, at start: DefaultTracerClock.Instant = DefaultTracerClock.now)
        -> MessageSpan
    {
        guard let tracer else { return MessageSpan(span: nil, headers: MessageTrace(of: message).headers) }
        var parent = InstrumentationContext.topLevel
        tracer.extract(message.headers, into: &parent, using: KafkaHeaderExtractor())
        let span = tracer.startSpan("process \(message.topic)", context: parent, ofKind: .consumer, at: start)
        span.updateAttributes { a in
            a[Attribute.system] = "kafka"
            a[Attribute.operationType] = "process"
            a[Attribute.operationName] = "process"
            a[Attribute.destination] = message.topic
            a[Attribute.partition] = String(message.partition)
            a[Attribute.offset] = Int(message.offset)
            if let group { a[Attribute.consumerGroup] = group }
            if let key = message.key, let text = String(validating: key, as: UTF8.self) {
                a[Attribute.messageKey] = text
            }
            if let value = message.value { a[Attribute.bodySize] = value.count } else { a[Attribute.tombstone] = true }
        }
        var headers: [KafkaHeader] = []
        tracer.inject(span.context, into: &headers, using: KafkaHeaderInjector())
        return MessageSpan(span: span, headers: headers.isEmpty ? MessageTrace(of: message).headers : headers)
    }
}
