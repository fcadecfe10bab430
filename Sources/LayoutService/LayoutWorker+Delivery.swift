import Dispatch
import Kafka

/// Producing an input message's outputs and accounting for it once the broker acknowledges them all.
extension LayoutWorker {
    func deadLetter(_ message: KafkaMessage, code: String, reason: String) {
        logger.warning("dead-lettering message", metadata: [
            "topic": .string(message.topic), "partition": .stringConvertible(message.partition),
            "offset": .stringConvertible(message.offset), "code": .string(code), "reason": .string(reason),
        ])
        let headers = DeadLetter.headers(for: message, code: code, reason: reason, version: settings.version)
        send(message, purpose: .deadLetter(code: code), parts: [Part(topic: settings.deadLetterTopic, key: message.key, value: message.value, headers: headers)])
    }

    /// Produces every part for one input message under one token; the message is done when all are acknowledged.
    func send(_ message: KafkaMessage, purpose: Purpose, parts: [Part]) {
        let token = nextToken
        nextToken += 1
        if inFlight.isEmpty { lastDelivery = .now() }
        inFlight[token] = InFlight(message: message, purpose: purpose, parts: parts, remaining: 0, failure: nil)
        enqueue(token, parts)
    }

    /// Produces `parts` under `token`, counting what was queued and noting the first local failure.
    func enqueue(_ token: Int, _ parts: [Part]) {
        for part in parts {
            while true {
                do {
                    try producer.produce(topic: part.topic, partition: part.partition, key: part.key, value: part.value, headers: part.headers, token: token)
                    inFlight[token]?.remaining += 1
                } catch {
                    if error.name == "_QUEUE_FULL" {
                        handle(producer.poll(timeoutMs: 100))
                        continue
                    }
                    if inFlight[token]?.failure == nil { inFlight[token]?.failure = (part.topic, error) }
                }
                break
            }
        }
        if inFlight[token]?.remaining == 0 { finish(token) }
    }

    func finishSkipped(_ message: KafkaMessage) {
        counts.skipped += 1
        metrics.skipped.increment()
        tracker.complete(topic: message.topic, partition: message.partition, offset: message.offset)
    }

    /// Replaces a producer that was fenced, or that acknowledged nothing for `producerStallMs` while messages wait (e.g.
    /// an idempotent producer whose id a restarted broker no longer knows), re-sending everything in flight in order.
    func replaceProducer(reason: String) {
        replacements += 1
        guard replacements <= 10 else {
            logger.error("the producer failed 10 times in a row without delivering anything; stopping")
            fatal = KafkaError(code: -150, name: "_FATAL", message: "producer replaced 10 times without a delivery: \(reason)", isFatal: true)
            return
        }
        logger.warning("replacing the producer and re-sending what is in flight", metadata: [
            "reason": .string(reason), "in-flight": .stringConvertible(inFlight.count), "attempt": .stringConvertible(replacements),
        ])
        // The purged messages' reports are dropped: every one of them is sent again below.
        _ = producer.purge()
        do {
            producer = try KafkaProducer(configuration: producerConfig, idempotent: true)
        } catch {
            logger.error("cannot create a new producer; stopping", metadata: ["error": .string(error.description)])
            fatal = error
            return
        }
        metrics.producerReplaced()
        lastDelivery = .now()
        for token in inFlight.keys.sorted() {
            guard let parts = inFlight[token]?.parts else { continue }
            inFlight[token]?.remaining = 0
            inFlight[token]?.failure = nil
            enqueue(token, parts)
            if inFlight[token]?.remaining == 0 { finish(token) }
        }
    }

    /// Errors that condemn the producer rather than one record: its messages are re-sent through a new producer.
    static let producerErrors: Set<String> = ["PRODUCER_FENCED", "_FENCED", "INVALID_PRODUCER_EPOCH", "_FATAL", "UNKNOWN_PRODUCER_ID"]

    func handle(_ reports: [DeliveryReport]) {
        if !reports.isEmpty { lastDelivery = .now() }
        var replace = false
        for report in reports {
            guard inFlight[report.token] != nil else { continue }
            if let error = report.error, Self.producerErrors.contains(error.name) || error.isFatal {
                replace = true
                continue
            }
            replacements = 0
            inFlight[report.token]!.remaining -= 1
            if let error = report.error, inFlight[report.token]!.failure == nil { inFlight[report.token]!.failure = (report.topic, error) }
            if inFlight[report.token]!.remaining == 0 { finish(report.token) }
        }
        if replace { replaceProducer(reason: "the producer was fenced") }
    }

    /// Accounts for an input message once every part is acknowledged (or failed).
    func finish(_ token: Int) {
        guard let entry = inFlight.removeValue(forKey: token) else { return }
        let m = entry.message
        if let (topic, error) = entry.failure {
            switch entry.purpose {
            case .record, .tombstone, .skip:
                // librdkafka has already retried what was retriable; the message goes to the dead-letter topic.
                deadLetter(m, code: "produce-failed", reason: "\(topic): \(error.description)")
            case .deadLetter:
                // The dead-letter topic refuses it too: stop without committing past this offset.
                logger.error("dead letter not delivered; stopping", metadata: ["error": .string(error.description), "offset": .stringConvertible(m.offset)])
                fatal = error
            }
            return
        }
        switch entry.purpose {
        case .record, .tombstone:
            counts.published += 1
            metrics.published.increment()
        case .skip:
            counts.skipped += 1
            metrics.skipped.increment()
        case .deadLetter(let code):
            counts.deadLettered += 1
            metrics.deadLettered(code: code)
        }
        tracker.complete(topic: m.topic, partition: m.partition, offset: m.offset)
    }
}
