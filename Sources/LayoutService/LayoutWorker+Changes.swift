import Kafka
import LayoutDiff
import LayoutRecord

/// Publishing with change sets on: each record's change set and the page's latest layout.
extension LayoutWorker {
    /// With changes on, what each message of the batch does to its page (records and tombstones; nil otherwise).
    func pageOutcomes(_ batch: [KafkaMessage], _ outcomes: [MessageOutcome]) -> [ChangeStage.Outcome?]? {
        guard changes != nil else { return nil }
        var indices: [Int] = []
        var items: [(message: KafkaMessage, record: RecordOutline?)] = []
        for (i, outcome) in outcomes.enumerated() {
            switch outcome {
            // A pass-through run's input is not a record: it is published without a page.
            case .record(_, _, let outline?): items.append((batch[i], outline))
            case .tombstone: items.append((batch[i], nil))
            case .skip where batch[i].value == nil: items.append((batch[i], nil))
            default: continue
            }
            indices.append(i)
        }
        var result = [ChangeStage.Outcome?](repeating: nil, count: batch.count)
        // In place (through the optional), so the store is never copied.
        for (i, outcome) in zip(indices, changes!.outcomes(items)) { result[i] = outcome }
        return result
    }

    /// Publishes a record; with changes on, also its change set and the page's latest layout.
    func publish(_ message: KafkaMessage, record: [UInt8], page: ChangeStage.Outcome?, span: MessageSpan) {
        let headers = Self.recordHeaders(for: message, trace: span.headers, config: compiler.configHash)
        guard let c = settings.changes, let page else {
            delivery.send(
                message, purpose: .record,
                parts: [Part(topic: settings.outputTopic, key: message.key, value: record, headers: headers)],
                span: span)
            return
        }
        let step: ChangeStage.Step
        switch page {
        case .changed(let s): step = s
        case .redelivered, .untracked, .cleared:
            // A record without a change set: a re-delivered input is published again (the records topic is
            // at-least-once) but does not move its page back; a record without a page key has no page.
            if case .redelivered = page {
                metrics.changeSetSkipped(reason: "redelivered")
            } else {
                metrics.changeSetSkipped(reason: "no-page-key")
            }
            delivery.send(
                message, purpose: .record,
                parts: [Part(topic: settings.outputTopic, key: message.key, value: record, headers: headers)],
                span: span)
            return
        }
        metrics.changeSet(step.changeSet.summary)
        let pageKey = Array(step.pageKey.utf8)
        var changeHeaders = DeadLetter.carried(message, trace: span.headers).filter {
            $0.name != OutputHeader.contentType
        }
        changeHeaders.append(KafkaHeader(OutputHeader.contentType, text: OutputHeader.changeSetContentType))
        changeHeaders += OutputHeader.source(of: message)
        changeHeaders.append(KafkaHeader(OutputHeader.config, text: compiler.configHash))
        delivery.send(
            message, purpose: .record,
            parts: [
                Part(topic: settings.outputTopic, key: message.key, value: step.record, headers: headers),
                Part(
                    topic: c.stateTopic, partition: message.partition, key: pageKey, value: step.record,
                    headers: OutputHeader.source(of: message) + [
                        KafkaHeader(OutputHeader.contentType, text: OutputHeader.recordContentType),
                        KafkaHeader(OutputHeader.config, text: compiler.configHash),
                    ]),
                // After the latest layout is stored: a crash in between loses this change set (renderers see the
                // next one's base differ and fetch the latest layout), never publishes one the page is past.
                Part(
                    topic: c.changesTopic, key: pageKey, value: step.changeSet.bytes, headers: changeHeaders,
                    afterOthers: true),
            ], span: span)
    }

    /// The tombstone that clears a page's latest layout (its position is the tombstone's input offset).
    func stateTombstone(_ message: KafkaMessage, page: String, in changes: ChangeSettings) -> Part {
        Part(
            topic: changes.stateTopic, partition: message.partition, key: Array(page.utf8), value: nil,
            headers: OutputHeader.source(of: message))
    }
}
