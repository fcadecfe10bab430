import Kafka
import Logging

extension InFlightTable.Entry {
    /// `message` on its way to the dead-letter topic with `code` and `reason`, cut down to fit `limit` bytes
    /// (logged through `logger`, as every cut is).
    init(
        deadLetter message: KafkaMessage, code: String, reason: String, span: MessageSpan,
        settings: DeliveryEngine.Settings, limit: Int, logger: Logger
    ) {
        logger.warning(
            "dead-lettering message",
            metadata: [
                "topic": .string(message.topic), "partition": .stringConvertible(message.partition),
                "offset": .stringConvertible(message.offset), "code": .string(code),
                "reason": .string(String(reason.prefix(500))),
            ])
        self.init(message: message, span: span, purpose: .deadLetter(code: code), parts: [])
        self.reason = reason
        cut(to: limit, from: .none, settings: settings, logger: logger)
    }

    /// The dead-letter topic refused this letter with `error`: keeps less of the input (fitted, then provenance
    /// only). False when it is already minimal (then the refusal is waited out like a blocked output).
    mutating func cutFurther(after error: KafkaError, settings: DeliveryEngine.Settings, limit: Int, logger: Logger)
        -> Bool
    {
        guard cut < .provenanceOnly else { return false }
        let next: DeadLetter.Cut = error.isRecordTooLarge && cut == .none ? .fitted : .provenanceOnly
        cut(
            to: error.isRecordTooLarge ? min(limit, parts[0].wireSize / 2) : limit, from: next, settings: settings,
            logger: logger, always: true)
        return true
    }

    /// Makes the letter at cut `from` or beyond, the first that fits `limit`, as this entry's one part.
    private mutating func cut(
        to limit: Int, from: DeadLetter.Cut, settings: DeliveryEngine.Settings, logger: Logger, always: Bool = false
    ) {
        guard case .deadLetter(let code) = purpose else { return }
        let letter = DeadLetter.letter(
            for: message, code: code, reason: reason, version: settings.version, trace: span.headers, limit: limit,
            from: from)
        if always || letter.cut != .none {
            logger.warning(
                "dead letter cut to fit",
                metadata: [
                    "topic": .string(message.topic), "partition": .stringConvertible(message.partition),
                    "offset": .stringConvertible(message.offset), "cut": .string("\(letter.cut)"),
                    "limit": .stringConvertible(limit),
                ])
        }
        cut = letter.cut
        parts = [
            DeliveryEngine.Part(
                topic: settings.deadLetterTopic, key: letter.key, value: letter.value, headers: letter.headers)
        ]
    }
}
