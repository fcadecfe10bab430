public import Kafka
public import Tracing

/// The tracing of one input message's processing (consume → compile → produce): the span, when a tracer is
/// bootstrapped, and the trace headers every output of the message carries (record, change set, tombstones, dead
/// letter). It ends once, when the message is settled.
public struct MessageSpan: Sendable {
    /// The span, or nil when no tracer records spans (the outputs still carry a child `traceparent`).
    public let span: (any Span)?
    /// The trace context headers for the message's outputs.
    public let headers: [KafkaHeader]

    public init(span: (any Span)?, headers: [KafkaHeader]) {
        self.span = span
        self.headers = headers
    }

    /// The outcome of the message, recorded on the span (a dead letter is an error), and the span ended.
    public func end(_ settlement: DeliveryEngine.Settlement) {
        guard let span else { return }
        span.attributes[MessageTracer.Attribute.outcome] = settlement.name
        if case .deadLettered(let code) = settlement {
            span.attributes[MessageTracer.Attribute.errorType] = code
            span.setStatus(SpanStatus(code: .error, message: code))
        }
        span.end()
    }

    /// Ends the span of a message whose outputs were not all acknowledged (its partition was revoked, or the
    /// worker stopped first): it will be processed again.
    public func abandon(_ why: String) {
        guard let span else { return }
        span.attributes[MessageTracer.Attribute.outcome] = "abandoned"
        span.setStatus(SpanStatus(code: .error, message: why))
        span.end()
    }
}
