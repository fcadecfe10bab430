public import Kafka

extension DeliveryEngine {
    /// Sends what `outcome` becomes on `topic`, the one step `serve` (for a message without a page) and `replay`
    /// share: a record with `OutputHeader.record` headers, a tombstone with the input's headers, a dead letter; a
    /// skip has no output and settles at once. Every message settles through `onSettled`.
    public func deliver(
        _ outcome: MessageOutcome, of message: KafkaMessage, to topic: String, config: String, span: MessageSpan
    ) {
        switch outcome {
        case .record(let bytes, _, _):
            let headers = OutputHeader.record(for: message, trace: span.headers, config: config)
            send(
                message, purpose: .record,
                parts: [Part(topic: topic, key: message.key, value: bytes, headers: headers)], span: span)
        case .tombstone:
            let headers = DeadLetter.carried(message, trace: span.headers)
            send(
                message, purpose: .tombstone,
                parts: [Part(topic: topic, key: message.key, value: nil, headers: headers)], span: span)
        case .skip:
            send(message, purpose: .skip, parts: [], span: span)
        case .deadLetter(let code, let reason):
            deadLetter(message, code: code, reason: reason, span: span)
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
