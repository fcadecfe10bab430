import Delivery
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
        for key in changes!.unreadableOnDisk {
            logger.warning(
                "unreadable latest layout skipped",
                metadata: [
                    "topic": .string(key.topic), "partition": .stringConvertible(key.partition),
                    "page": .string(key.page), "page-store": .string(changes!.pages.disk?.path ?? "off"),
                ])
        }
        return result
    }

    /// Who stores a page's latest layout in a batch, and what the page's other change sets wait for.
    enum StateWrite {
        /// This message stores the page's latest layout (or its tombstone), opening `opens` when it is stored.
        case store(opens: DeliveryEngine.Gate?)
        /// A later message of the batch stores the page: this one stores nothing, and its change set is
        /// published once that later layout is stored.
        case waitFor(DeliveryEngine.Gate)

        var part: (waitsFor: DeliveryEngine.Gate?, opens: DeliveryEngine.Gate?) {
            switch self {
            case .store(let g): (nil, g)
            case .waitFor(let g): (g, nil)
            }
        }
    }

    /// The latest-layout topic is compacted, so of the messages of a batch that change or clear one page, only the
    /// last stores it; the change sets of the others wait for that store (so none is published ahead of the page's
    /// stored position, as when each message stored its own). Nil for messages that store nothing.
    func stateWrites(_ batch: [KafkaMessage], _ pages: [ChangeStage.Outcome?]) -> [StateWrite?] {
        var last: [LayoutStore.Key: (index: Int, count: Int)] = [:]
        var keys = [LayoutStore.Key?](repeating: nil, count: batch.count)
        for (i, page) in pages.enumerated() {
            let name: String
            switch page {
            case .changed(let step)?: name = step.pageKey
            case .cleared(let page)?: name = page
            default: continue
            }
            let key = LayoutStore.Key(topic: batch[i].topic, partition: batch[i].partition, page: name)
            keys[i] = key
            last[key] = (i, (last[key]?.count ?? 0) + 1)
        }
        var gates: [LayoutStore.Key: DeliveryEngine.Gate] = [:]
        for (key, page) in last where page.count > 1 { gates[key] = delivery.makeGate() }
        return keys.enumerated().map { i, key in
            guard let key else { return nil }
            return last[key]!.index == i ? .store(opens: gates[key]) : .waitFor(gates[key]!)
        }
    }

    /// Sends what a message with a page becomes: its record or tombstone, and what it does to the page (change set,
    /// latest layout, or the tombstones that clear them); a skip that clears a page clears its latest layout.
    func deliver(
        _ outcome: MessageOutcome, of message: KafkaMessage, page: ChangeStage.Outcome, state: StateWrite?,
        changes c: ChangeSettings, span: MessageSpan
    ) {
        switch outcome {
        case .skip:
            var parts: [Part] = []
            if case .cleared(let page) = page, let clear = stateTombstone(message, page: page, in: c, state: state) {
                parts.append(clear)
            }
            delivery.send(message, purpose: .skip, parts: parts, span: span)
        case .tombstone:
            let headers = DeadLetter.carried(message, trace: span.headers)
            var parts = [Part(topic: settings.outputTopic, key: message.key, value: nil, headers: headers)]
            if case .cleared(let page) = page {
                let clear = stateTombstone(message, page: page, in: c, state: state)
                if let clear { parts.append(clear) }
                parts.append(
                    Part(
                        topic: c.changesTopic, key: Array(page.utf8), value: nil, headers: headers,
                        afterOthers: true, waitsFor: clear == nil ? state?.part.waitsFor : nil))
            }
            delivery.send(message, purpose: .tombstone, parts: parts, span: span)
        case .record(let bytes, _, _):
            publish(message, record: bytes, page: page, state: state, changes: c, span: span)
        case .deadLetter(let code, let reason):
            delivery.deadLetter(message, code: code, reason: reason, span: span)
        }
    }

    /// Publishes a record, its change set and (when `state` says so) the page's latest layout.
    func publish(
        _ message: KafkaMessage, record: [UInt8], page: ChangeStage.Outcome, state: StateWrite?,
        changes c: ChangeSettings, span: MessageSpan
    ) {
        let headers = OutputHeader.record(for: message, trace: span.headers, config: compiler.configHash)
        let step: ChangeStage.Step
        switch page {
        case .changed(let s): step = s
        case .redelivered, .untracked, .cleared:
            // A record without a change set: a re-delivered input is published again (the records topic is
            // at-least-once), carrying from the page's stored layout, but does not move its page back; a record
            // without a page key has no page.
            var value = record
            if case .redelivered(_, _, let carried) = page {
                metrics.changeSetSkipped(reason: "redelivered")
                value = carried ?? record
            } else {
                metrics.changeSetSkipped(reason: "no-page-key")
            }
            delivery.send(
                message, purpose: .record,
                parts: [Part(topic: settings.outputTopic, key: message.key, value: value, headers: headers)],
                span: span)
            return
        }
        metrics.changeSet(step.changeSet.summary)
        let pageKey = Array(step.pageKey.utf8)
        var changeHeaders = DeadLetter.carried(message, trace: span.headers).filter {
            $0.name != OutputHeader.contentType
        }
        changeHeaders.append(KafkaHeader(OutputHeader.contentType, text: OutputHeader.changeSetContentType))
        changeHeaders += OutputHeader.source(of: message) + OutputHeader.sourceTime(of: message)
        changeHeaders.append(KafkaHeader(OutputHeader.config, text: compiler.configHash))
        let gates = (state ?? .store(opens: nil)).part
        var parts = [Part(topic: settings.outputTopic, key: message.key, value: step.record, headers: headers)]
        if gates.waitsFor == nil {
            parts.append(
                Part(
                    topic: c.stateTopic, partition: message.partition, key: pageKey, value: step.record,
                    headers: OutputHeader.source(of: message) + OutputHeader.sourceTime(of: message) + [
                        KafkaHeader(OutputHeader.contentType, text: OutputHeader.recordContentType),
                        KafkaHeader(OutputHeader.config, text: compiler.configHash),
                    ], opens: gates.opens))
        }
        // After the latest layout is stored: a crash in between loses this change set (renderers see the next one's
        // base differ and fetch the latest layout), never publishes one the page is past.
        parts.append(
            Part(
                topic: c.changesTopic, key: pageKey, value: step.changeSet.bytes, headers: changeHeaders,
                afterOthers: true, waitsFor: gates.waitsFor))
        delivery.send(message, purpose: .record, parts: parts, span: span)
    }

    /// The tombstone that clears a page's latest layout (its position is the tombstone's input offset); nil when a
    /// later message of the batch stores the page.
    func stateTombstone(_ message: KafkaMessage, page: String, in changes: ChangeSettings, state: StateWrite?)
        -> Part?
    {
        let gates = (state ?? .store(opens: nil)).part
        guard gates.waitsFor == nil else { return nil }
        return Part(
            topic: changes.stateTopic, partition: message.partition, key: Array(page.utf8), value: nil,
            headers: OutputHeader.source(of: message), opens: gates.opens)
    }
}
