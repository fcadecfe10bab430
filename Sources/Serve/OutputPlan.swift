import Delivery
import Kafka
import LayoutDiff
import PageState
import PageStore

/// What one message of a batch becomes on the topics, built in one place: its record (or tombstone) on the output
/// topic and, with change sets on, what it does to its page: the page's latest layout (or the tombstone clearing
/// it) and its change set, with the gates that order them. Headers come from `OutputHeaders`.
///
/// Order: a change set is produced after the other outputs of its message are acknowledged (`afterOthers`), and
/// after the page's latest layout is stored when a later message of the batch stores it (`waitsFor`): a crash in
/// between would lose the change set, so the latest layout carries the page's steps whose inputs the group has not
/// committed (`CarriedStep`): each input a carried step came from, delivered again, publishes that step again. No
/// change set is ever
/// published for a step the page has not taken.
struct OutputPlan {
    /// Why a record was published without a change set (the `reason` of `layout_worker_change_sets_skipped_total`).
    enum ChangeSetSkip: String {
        /// A re-delivered input: the page is already past it.
        case redelivered
        /// No page key: no page.
        case noPageKey = "no-page-key"
        /// The record lays out what the page already holds (the same response again): nothing to change.
        case unchanged
    }

    typealias Part = DeliveryEngine.Part

    private(set) var outputs: Outputs
    /// The change set published, for the metrics.
    private(set) var changeSet: ChangeSummary?
    /// Why a record went without a change set.
    private(set) var skipped: ChangeSetSkip?
    /// Change sets published again (a re-delivered input the page is at).
    private(set) var republished = 0

    /// The plan for `item` (its page and state write set when change sets are on: `pages`), its record made with
    /// the config `config`, its outputs carrying `trace`.
    init(_ item: BatchItem, output: String, pages: ChangeSettings?, config: String, trace: [KafkaHeader]) {
        let message = item.message
        guard let pages, let page = item.page else {
            outputs = Outputs(item.outcome, of: message, to: output, config: config, trace: trace)
            return
        }
        let gates = (item.state ?? .store(opens: nil)).gates
        switch item.outcome {
        case .skip:
            // A skipped tombstone that clears a page clears its latest layout.
            guard case .cleared(let name, let carried) = page,
                let clear = Self.clearing(name, carried, of: message, on: pages, gates)
            else {
                outputs = .send(.skip, [])
                return
            }
            outputs = .send(.skip, [clear])
        case .tombstone:
            let headers = OutputHeaders.tombstone(for: message, trace: trace)
            var parts = [Part(topic: output, key: message.key, value: nil, headers: headers)]
            if case .cleared(let name, let carried) = page {
                if let clear = Self.clearing(name, carried, of: message, on: pages, gates) { parts.append(clear) }
                parts.append(
                    Part(
                        topic: pages.changesTopic, key: Array(name.utf8), value: nil, headers: headers,
                        afterOthers: true, waitsFor: gates.waitsFor))
            }
            outputs = .send(.tombstone, parts)
        case .record(let body, _):
            self = Self.record(
                body.bytes, of: message, page: page, gates: gates, output: output, pages: pages, config: config,
                trace: trace)
        case .deadLetter(let code, let reason):
            outputs = .deadLetter(code: code, reason: reason)
        }
    }

    /// A record, with its change set and (unless a later message of the batch stores the page) the page's latest
    /// layout; a record without a change set (re-delivered, or without a page key) is published alone.
    private static func record(
        _ record: [UInt8], of message: KafkaMessage, page: ChangeStage.Outcome,
        gates: (waitsFor: DeliveryEngine.Gate?, opens: DeliveryEngine.Gate?), output: String, pages: ChangeSettings,
        config: String, trace: [KafkaHeader]
    ) -> OutputPlan {
        let headers = OutputHeaders.record(for: message, trace: trace, config: config)
        if case .unchanged(let same) = page {
            // The page keeps its bytes (its hash, every ETag) and moves to this input: its latest layout is stored
            // again with this position, and no change set reaches a renderer.
            var parts = [Part(topic: output, key: message.key, value: same.record, headers: headers)]
            if gates.waitsFor == nil {
                parts.append(
                    Part(
                        topic: pages.latestLayoutTopic, partition: message.partition, key: Array(same.pageKey.utf8),
                        value: same.latest,
                        headers: OutputHeaders.latestLayout(for: message, config: config)
                            + CarriedStep.headers(same.carried), opens: gates.opens))
            }
            return OutputPlan(outputs: .send(.record, parts), skipped: .unchanged)
        }
        guard case .changed(let step) = page else {
            // A re-delivered input is published again (the records topic is at-least-once), carrying from the
            // page's stored layout, but does not move its page back.
            var value = record
            var skipped = ChangeSetSkip.noPageKey
            var again: [Part] = []
            if case .redelivered(let name, _, let carried, let republish) = page {
                skipped = .redelivered
                value = carried ?? record
                again = republish.map { Self.republished($0, page: name, of: message, on: pages, trace, config) }
            }
            let parts = [Part(topic: output, key: message.key, value: value, headers: headers)] + again
            return OutputPlan(
                outputs: .send(.record, parts), skipped: again.isEmpty ? skipped : nil, republished: again.count)
        }
        let pageKey = Array(step.pageKey.utf8)
        var parts = [Part(topic: output, key: message.key, value: step.record, headers: headers)]
        if gates.waitsFor == nil {
            parts.append(
                Part(
                    topic: pages.latestLayoutTopic, partition: message.partition, key: pageKey, value: step.record,
                    headers: OutputHeaders.latestLayout(for: message, config: config)
                        + CarriedStep.headers(step.carried), opens: gates.opens))
        }
        parts.append(
            Part(
                topic: pages.changesTopic, key: pageKey, value: step.changeSet.bytes,
                headers: OutputHeaders.changeSet(for: message, trace: trace, config: config), afterOthers: true,
                waitsFor: gates.waitsFor))
        return OutputPlan(outputs: .send(.record, parts), changeSet: step.changeSet.summary)
    }

    private init(
        outputs: Outputs, changeSet: ChangeSummary? = nil, skipped: ChangeSetSkip? = nil, republished: Int = 0
    ) {
        (self.outputs, self.changeSet, self.skipped, self.republished) = (outputs, changeSet, skipped, republished)
    }

    /// A step's change set (or a cleared page's tombstone) published again, after the record, with a change set's
    /// headers for this message but naming the step's input offset (the same bytes as its first publication).
    private static func republished(
        _ step: CarriedStep, page: String, of message: KafkaMessage, on pages: ChangeSettings,
        _ trace: [KafkaHeader], _ config: String
    ) -> Part {
        var input = message
        input.offset = step.offset
        let headers =
            step.changeSet == nil
            ? OutputHeaders.tombstone(for: input, trace: trace)
            : OutputHeaders.changeSet(for: input, trace: trace, config: config)
        return Part(
            topic: pages.changesTopic, key: Array(page.utf8), value: step.changeSet, headers: headers,
            afterOthers: true)
    }

    /// The tombstone that clears a page's latest layout (its position is the tombstone's input offset); nil when a
    /// later message of the batch stores the page.
    private static func clearing(
        _ page: String, _ carried: [CarriedStep], of message: KafkaMessage, on pages: ChangeSettings,
        _ gates: (waitsFor: DeliveryEngine.Gate?, opens: DeliveryEngine.Gate?)
    ) -> Part? {
        guard gates.waitsFor == nil else { return nil }
        return Part(
            topic: pages.latestLayoutTopic, partition: message.partition, key: Array(page.utf8), value: nil,
            headers: OutputHeaders.source(of: message) + CarriedStep.headers(carried), opens: gates.opens)
    }
}
