public import Kafka
public import Logging

/// Produces each input message's outputs and settles the message once every output is acknowledged: published,
/// skipped or dead-lettered. `serve` and `replay` both deliver through it, so producing, acknowledgement, retries,
/// producer replacement, dead-lettering and size checks behave the same in both.
///
/// The failure policy, by what the cluster says about a record (see `ProduceDisposition`):
/// - refused for what it is (too large, rejected by the broker's validation): the input goes to the dead-letter
///   topic (`record-too-large` or `produce-failed`);
/// - the producer is unusable (fatal error, fenced, producer id lost) or purged the record: a new producer is made
///   at once and everything unacknowledged is sent again, in order; nothing is dead-lettered for it;
/// - anything else (topic missing, leader not available, timeouts, transport): the output is *blocked*; the owner
///   pauses fetching and the records are sent again with a growing backoff until the cluster takes them.
/// A dead letter always fits the size limit (`DeadLetter.letter`); one the dead-letter topic refuses even when cut
/// to its provenance is waited out like a blocked output. Nothing here ever stops the worker.
public final class DeliveryEngine {

    typealias Entry = InFlightTable.Entry

    /// At most this many parts per input message (they share the message's token; the part is the report token's
    /// low `partBits` bits): a record, its latest layout and up to 62 change sets (a page's carried steps published
    /// again).
    public static let maxParts = 1 << partBits
    static let partBits = 6

    let settings: Settings
    /// The producer's `message.max.bytes`: no record above it is produced.
    public let maxRecordBytes: Int
    let metrics: (any DeliveryMetrics)?
    var logger: Logger
    var link: ProducerLink
    var entries = InFlightTable()
    public private(set) var blocked: Blocked?
    var gates = GateBook()
    /// Called when a part waiting for a gate is not produced because the gate was dropped.
    public var onDropped: (KafkaMessage, Part) -> Void = { _, _ in }
    /// Called once per input message, when it is settled.
    public var onSettled: (KafkaMessage, Settlement) -> Void = { _, _ in }
    /// Called for each part the cluster acknowledged (with its partition and offset), before its bytes are let go.
    public var onAcknowledged: ((KafkaMessage, Part, DeliveryReport) -> Void)?
    /// Called when the output becomes blocked (with the reason) or unblocked (nil).
    public var onBlockedChange: (String?) -> Void = { _ in }

    /// An engine with its own producer, its `message.max.bytes` fit for `maxInputBytes` unless set
    /// (`Settings.limitingRecords(toFit:)`).
    public init(settings: Settings, maxInputBytes: Int, metrics: (any DeliveryMetrics)?, logger: Logger)
        throws(KafkaError)
    {
        self.settings = settings.limitingRecords(toFit: maxInputBytes)
        maxRecordBytes = Int(self.settings.producer.properties["message.max.bytes"] ?? "") ?? 1_000_000
        self.metrics = metrics
        self.logger = logger
        link = try ProducerLink(configuration: self.settings.producer)
    }

    /// Input messages not yet settled.
    public var inFlightMessages: Int { entries.count }
    /// Input and output bytes held for the messages not yet settled.
    public var inFlightBytes: Int { entries.bytes }

    /// A new gate, for parts sent after this call.
    public func makeGate() -> Gate { gates.make() }

    // MARK: Sending

    /// Produces every part for one input message; the message is settled when all are acknowledged. A record over
    /// the size limit is not produced: the input is dead-lettered as `record-too-large` instead.
    public func send(_ message: KafkaMessage, purpose: Purpose, parts: [Part], span: MessageSpan) {
        precondition(parts.count <= Self.maxParts, "at most \(Self.maxParts) outputs per input message")
        if !purpose.isDeadLetter, let tooLarge = Part.oversized(parts, limit: maxRecordBytes) {
            for part in parts { if let g = part.opens { resolve(g, open: false) } }
            deadLetter(message, code: DeadLetter.Code.recordTooLarge.rawValue, reason: tooLarge, span: span)
            return
        }
        enqueue(Entry(message: message, span: span, purpose: purpose, parts: parts))
    }

    /// Sends `message` to the dead-letter topic with `code` and `reason`, cut down to fit the size limit.
    public func deadLetter(_ message: KafkaMessage, code: String, reason: String, span: MessageSpan) {
        enqueue(
            Entry(
                deadLetter: message, code: code, reason: reason, span: span, settings: settings, limit: maxRecordBytes,
                logger: logger))
    }

    /// Takes `entry` in flight under a new token and produces its parts (those deferred wait for the others, or
    /// for their gate).
    private func enqueue(_ entry: Entry) {
        if entries.isEmpty { link.lastReport = .now }
        let token = entries.add(entry)
        for part in entries.deferParts(token, gates: &gates) { onDropped(entry.message, part) }
        for i in entry.parts.indices where !entry.parts[i].afterOthers && entry.parts[i].waitsFor == nil {
            produce(token, i)
        }
        settleIfDone(token)
    }

    /// Produces part `i` of entry `token`; a local failure is handled like a delivery report.
    private func produce(_ token: Int, _ i: Int) {
        guard let part = entries[token]?.parts[i] else { return }
        while true {
            do {
                try link.producer.produce(
                    topic: part.topic, partition: part.partition, key: part.key, value: part.value,
                    headers: part.headers, token: token << Self.partBits | i)
                entries.produced(token, i)
            } catch {
                if error.isQueueFull {
                    handle(link.producer.poll(timeoutMs: 100))
                    if entries[token] == nil { return }
                    continue
                }
                failed(token, i, topic: part.topic, error: error)
            }
            return
        }
    }

    /// Notes that part `i` of entry `token` failed with `error` (it is no longer unacknowledged).
    private func failed(_ token: Int, _ i: Int, topic: String, error: KafkaError) {
        switch ProduceDisposition(error) {
        case .rejectRecord:
            entries.update(token) { if $0.rejection == nil { $0.rejection = (topic, error) } }
        case .replaceProducer:
            entries.markWaiting(token, i)
            link.replace(because: "\(topic): \(error)")
        case .wait:
            entries.markWaiting(token, i)
            if error.isUnknownTopic { link.noteMissing(topic) }
            block(reason: "\(topic): \(error)")
        }
    }

    // MARK: Reports

    /// Serves the producer for up to `timeoutMs` (flushing first when `flush`), handles what it reports, replaces
    /// a failed or stalled producer and sends waiting records again when their backoff is over.
    public func service(timeoutMs: Int32 = 0, flush: Bool = false) {
        let producer = link.producer
        handle(flush ? producer.flush(timeoutMs: timeoutMs).reports : producer.poll(timeoutMs: timeoutMs))
        let stall = link.check(stall: settings.stall, unacknowledged: entries.unacknowledgedParts) {
            entries.unacknowledgedTopics
        }
        if let stall { block(reason: stall) }
        if link.replacementReady {
            replaceProducer()
        } else if let b = blocked, entries.waitingParts > 0, ContinuousClock.now >= b.nextAttempt {
            blocked?.retried = true
            metrics?.retried(parts: entries.waitingParts)
            link.refreshMissingTopics()
            resendWaiting()
        }
    }

    /// Handles delivery reports: acknowledged parts, failures by disposition, settled messages.
    func handle(_ reports: [DeliveryReport]) {
        guard !reports.isEmpty else { return }
        link.lastReport = .now
        var delivered = false
        for report in reports {
            let token = report.token >> Self.partBits, i = report.token & (Self.maxParts - 1)
            guard let e = entries.reported(token, i) else { continue }
            if let error = report.error {
                failed(token, i, topic: report.topic, error: error)
            } else {
                delivered = true
                onAcknowledged?(e.message, e.parts[i], report)
                entries.release(token, i)
                if let g = e.parts[i].opens { resolve(g, open: true) }
            }
            settleIfDone(token)
        }
        if delivered, blocked != nil, entries.waitingParts == 0 { unblock() }
    }

    /// Settles entry `token` once nothing of it is unacknowledged or waiting; first produces its deferred parts,
    /// once the others are acknowledged (never when one was refused: the input is dead-lettered instead).
    private func settleIfDone(_ token: Int) {
        guard let e = entries[token], e.unacknowledged == 0, e.waiting == 0 else { return }
        if e.deferred != 0 && e.rejection == nil {
            // Parts still waiting for a gate stay deferred; the gate settles them when it opens or is dropped.
            let ready = entries.takeReady(token)
            guard !ready.isEmpty else { return }
            for i in ready { produce(token, i) }
            settleIfDone(token)
            return
        }
        if let (topic, error) = e.rejection {
            if case .deadLetter = e.purpose {
                refusedDeadLetter(token, topic: topic, error: error)
                return
            }
            remove(token)
            let code = error.isRecordTooLarge ? DeadLetter.Code.recordTooLarge : .produceFailed
            deadLetter(e.message, code: code.rawValue, reason: "\(topic): \(error.description)", span: e.span)
            return
        }
        remove(token)
        let settlement = e.purpose.settlement
        e.span.end(settlement)
        onSettled(e.message, settlement)
    }

    /// The dead-letter topic refused a dead letter: cut it further, or (already minimal) wait as for a blocked output.
    private func refusedDeadLetter(_ token: Int, topic: String, error: KafkaError) {
        guard var e = entries[token] else { return }
        e.rejection = nil
        let cut = e.cutFurther(after: error, settings: settings, limit: maxRecordBytes, logger: logger)
        entries.update(token) { $0 = e }
        guard cut else {
            entries.markWaiting(token, 0)
            block(reason: "\(topic) refuses even a minimal dead letter: \(error)")
            return
        }
        produce(token, 0)
        settleIfDone(token)
    }

    /// Ends the spans of the messages still in flight (they stay in flight and will be processed again).
    public func abandonUnsettled(_ why: String) {
        entries.entries.values.forEach { $0.span.abandon(why) }
    }

    private func remove(_ token: Int) {
        guard let e = entries.remove(token) else { return }
        // Settled without the part that opens a gate acknowledged (refused, dead-lettered): nothing will open it.
        for part in e.parts { if let g = part.opens { resolve(g, open: false) } }
        for i in e.parts.indices where e.deferred & (1 << i) != 0 {
            if let g = e.parts[i].waitsFor { gates.unwait(g, token: token) }
        }
    }

    /// Opens gate `g` (its waiting parts become ready) or drops it (they are never produced).
    private func resolve(_ g: Gate, open: Bool) {
        guard let waiting = gates.resolve(g) else { return }
        for (token, i) in waiting {
            guard let e = entries[token], e.deferred & (1 << i) != 0 else { continue }
            if open {
                entries.update(token) { $0.parts[i].waitsFor = nil }
            } else {
                entries.update(token) { $0.deferred &= ~(1 << i) }
                onDropped(e.message, e.parts[i])
            }
            settleIfDone(token)
        }
    }

    // MARK: Blocked output

    private func block(reason: String) {
        guard Blocked.block(&blocked, reason: reason, backoff: settings.retryBackoff) else { return }
        logger.warning(
            "output blocked; fetching pauses and records are sent again until the cluster takes them",
            metadata: ["reason": .string(reason)])
        onBlockedChange(reason)
    }

    private func unblock() {
        guard let seconds = Blocked.lift(&blocked) else { return }
        metrics?.outputBlocked(seconds: seconds)
        logger.info("output unblocked", metadata: ["seconds": .string(String(format: "%.1f", seconds))])
        onBlockedChange(nil)
    }

    /// Sends every waiting part again, oldest message first, so each partition keeps its order.
    private func resendWaiting() {
        for token in entries.entries.keys.sorted() {
            let parts = entries.takeWaiting(token)
            guard !parts.isEmpty else { continue }
            for i in parts { produce(token, i) }
            settleIfDone(token)
        }
    }

    // MARK: Producer replacement

    /// Replaces the producer (`ProducerLink.replaceNow`) and sends everything unacknowledged again, in order.
    func replaceProducer() {
        guard link.replaceNow(inFlight: entries.count, logger: logger) else { return }
        metrics?.producerReplaced()
        entries.requeueUnacknowledged()
        resendWaiting()
    }

    // MARK: Draining

    /// Waits until everything is settled, `timeout` passes or `stop()` says so; returns whether all settled.
    @discardableResult
    public func drain(within timeout: Duration, stop: () -> Bool = { false }) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !entries.isEmpty && ContinuousClock.now < deadline && !stop() {
            let left = Int((deadline - ContinuousClock.now) / .milliseconds(1))
            service(timeoutMs: Int32(max(1, min(100, left))), flush: true)
        }
        return entries.isEmpty
    }
}
