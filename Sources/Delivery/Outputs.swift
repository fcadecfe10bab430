public import Kafka

/// What one message becomes on the topics: outputs to send (each acknowledged before the message settles), or a
/// dead letter. Built in one place per purpose: `init(_:of:to:config:trace:)` for a message without a page (the
/// step `serve` and `replay` share), `serve`'s `OutputPlan` for one with a page.
public enum Outputs: Sendable {
    case send(DeliveryEngine.Purpose, [DeliveryEngine.Part])
    case deadLetter(code: String, reason: String)

    /// What `outcome` becomes on `topic`: a record with `OutputHeaders.record` headers, a tombstone with the input's
    /// headers, a dead letter; a skip has no output and settles at once.
    public init(
        _ outcome: MessageOutcome, of message: KafkaMessage, to topic: String, config: String, trace: [KafkaHeader]
    ) {
        switch outcome {
        case .record(let body, _):
            let headers = OutputHeaders.record(for: message, trace: trace, config: config)
            self = .send(.record, [.init(topic: topic, key: message.key, value: body.bytes, headers: headers)])
        case .tombstone:
            let headers = OutputHeaders.tombstone(for: message, trace: trace)
            self = .send(.tombstone, [.init(topic: topic, key: message.key, value: nil, headers: headers)])
        case .skip:
            self = .send(.skip, [])
        case .deadLetter(let code, let reason):
            self = .deadLetter(code: code, reason: reason)
        }
    }
}

extension DeliveryEngine {
    /// Sends `outputs` for `message`; it settles through `onSettled` once they are all acknowledged.
    public func deliver(_ outputs: Outputs, of message: KafkaMessage, span: MessageSpan) {
        switch outputs {
        case .send(let purpose, let parts): send(message, purpose: purpose, parts: parts, span: span)
        case .deadLetter(let code, let reason): deadLetter(message, code: code, reason: reason, span: span)
        }
    }
}

extension DeliveryEngine.Settlement {
    /// How a message with `outcome` would end if its outputs were all acknowledged (a dry run's count).
    public init(wouldBe outcome: MessageOutcome) {
        switch outcome {
        case .record: self = .published
        case .tombstone: self = .tombstoned
        case .skip: self = .skipped
        case .deadLetter(let code, _): self = .deadLettered(code: code)
        }
    }
}
