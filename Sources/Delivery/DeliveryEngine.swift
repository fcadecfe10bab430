public import Dispatch
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
    /// One record produced on behalf of an input message.
    public struct Part: Sendable {
        public var topic: String
        public var partition: Int32?
        public var key: [UInt8]?
        public var value: [UInt8]?
        public var headers: [KafkaHeader]
        /// Produced only once every other part of its message is acknowledged (a change set after the latest
        /// layout it leads to, so that no change set is ever published ahead of the page's stored position).
        public var afterOthers: Bool
        /// Produced only once `waitsFor` opens (a change set whose page's latest layout is stored by a later
        /// message of the batch); never, if that gate is dropped.
        public var waitsFor: Gate?
        /// Opens this gate when acknowledged; drops it when its message settles without it.
        public var opens: Gate?

        public init(
            topic: String, partition: Int32? = nil, key: [UInt8]?, value: [UInt8]?, headers: [KafkaHeader],
            afterOthers: Bool = false, waitsFor: Gate? = nil, opens: Gate? = nil
        ) {
            self.topic = topic
            self.partition = partition
            self.key = key
            self.value = value
            self.headers = headers
            self.afterOthers = afterOthers
            self.waitsFor = waitsFor
            self.opens = opens
        }

        /// Bytes this record takes on the wire at most.
        public var wireSize: Int { KafkaMessage.wireSize(key: key, value: value, headers: headers) }
    }

    /// A condition parts of other messages wait for: it opens when the part that opens it is acknowledged. Every
    /// part waiting for a gate is sent before the part that opens it (`makeGate`, then the waiting messages, then
    /// the opening one), so the gate knows them all when it opens or is dropped.
    public struct Gate: Hashable, Sendable {
        let id: Int

        package init(id: Int) { self.id = id }
    }

    /// Why an input message's outputs are produced.
    public enum Purpose: Sendable, Equatable {
        case record
        case tombstone
        /// Skipped, but a page's latest layout is being cleared.
        case skip
        case deadLetter(code: String)
    }

    /// How an input message ended, once all its outputs were acknowledged.
    public enum Settlement: Sendable, Equatable {
        case published
        case tombstoned
        case skipped
        case deadLettered(code: String)

        /// The word for it in logs and spans.
        public var name: String {
            switch self {
            case .published: "published"
            case .tombstoned: "tombstoned"
            case .skipped: "skipped"
            case .deadLettered: "dead-lettered"
            }
        }
    }

    /// Settings shared by `serve` and `replay`.
    public struct Settings: Sendable {
        public var producer: KafkaConfiguration
        public var deadLetterTopic: String
        /// The worker version written into dead letters.
        public var version: String
        /// With records unacknowledged and no report for this long, the producer is replaced.
        public var stallMs: Int
        /// First and largest wait between attempts to send records the cluster could not take.
        public var retryBackoffMs: (first: Int, max: Int) = (250, 5_000)

        public init(producer: KafkaConfiguration, deadLetterTopic: String, version: String, stallMs: Int) {
            self.producer = producer
            self.deadLetterTopic = deadLetterTopic
            self.version = version
            self.stallMs = stallMs
        }
    }

    /// An input message whose outputs are not all acknowledged yet.
    struct Entry {
        let message: KafkaMessage
        /// The message's span (ended when it is settled) and the trace headers of its outputs.
        let span: MessageSpan
        var purpose: Purpose
        var parts: [Part]
        /// Bit `i` set: part `i` is produced and not yet acknowledged.
        var unacknowledged: UInt8 = 0
        /// Bit `i` set: part `i` waits to be sent (again).
        var waiting: UInt8 = 0
        /// Bit `i` set: part `i` is produced once every other part is acknowledged (`Part.afterOthers`).
        var deferred: UInt8 = 0
        var rejection: (topic: String, error: KafkaError)?
        /// For a dead letter: how much of the input it keeps, and why the input is dead-lettered.
        var cut = DeadLetter.Cut.none
        var reason = ""
        /// Input and output bytes held for this message (the in-flight byte budget): counted by `enqueue`, less
        /// the outputs already acknowledged.
        var bytes = 0
    }

    /// Why the output is blocked and when the next attempt is due.
    public struct Blocked: Sendable {
        public var reason: String
        public var since: DispatchTime
        var nextAttempt: DispatchTime
        var backoffMs: Int
        /// Whether records were sent again since the backoff last grew.
        var retried = false
    }

    /// At most this many parts per input message (they share the message's token in the report's low bits).
    static let maxParts = 8

    let settings: Settings
    /// The producer's `message.max.bytes`: no record above it is produced.
    public let maxRecordBytes: Int
    let metrics: (any DeliveryMetrics)?
    var logger: Logger
    var producer: KafkaProducer
    var entries: [Int: Entry] = [:]
    var nextToken = 1
    /// When the producer last reported anything.
    var lastReport = DispatchTime.now()
    var lastReplacement = DispatchTime(uptimeNanoseconds: 0)
    /// A replacement asked for while the previous one was too recent.
    var replacementDue: String?
    var waitingParts = 0
    var unacknowledgedParts = 0
    public private(set) var inFlightBytes = 0
    public private(set) var blocked: Blocked?
    /// Gates not yet opened or dropped, with the parts (token, index) waiting for each.
    var gates: [Int: [(token: Int, part: Int)]] = [:]
    var nextGate = 1
    /// Called when a part waiting for a gate is not produced because the gate was dropped.
    public var onDropped: (KafkaMessage, Part) -> Void = { _, _ in }
    /// Called once per input message, when it is settled.
    public var onSettled: (KafkaMessage, Settlement) -> Void = { _, _ in }
    /// Called for each part the cluster acknowledged (with its partition and offset), before its bytes are let go.
    public var onAcknowledged: ((KafkaMessage, Part, DeliveryReport) -> Void)?
    /// Called when the output becomes blocked (with the reason) or unblocked (nil).
    public var onBlockedChange: (String?) -> Void = { _ in }

    /// An engine with its own producer. The producer's `message.max.bytes` defaults to twice `maxInputBytes` plus
    /// 100 kB (a record may be larger than its input), at least librdkafka's default of 1,000,000.
    public init(settings: Settings, maxInputBytes: Int, metrics: (any DeliveryMetrics)?, logger: Logger)
        throws(KafkaError)
    {
        var producerConfig = settings.producer
        if producerConfig.properties["message.max.bytes"] == nil {
            let (doubled, o1) = maxInputBytes.multipliedReportingOverflow(by: 2)
            let (sum, o2) = doubled.addingReportingOverflow(100_000)
            producerConfig.properties["message.max.bytes"] = String(
                min(1_000_000_000, max(1_000_000, o1 || o2 ? Int.max : sum)))
        }
        var adjusted = settings
        adjusted.producer = producerConfig
        self.settings = adjusted
        maxRecordBytes = Int(producerConfig.properties["message.max.bytes"] ?? "") ?? 1_000_000
        self.metrics = metrics
        self.logger = logger
        producer = try KafkaProducer(configuration: producerConfig, idempotent: true)
    }

    /// Input messages not yet settled.
    public var inFlightMessages: Int { entries.count }

    /// A new gate, for parts sent after this call.
    public func makeGate() -> Gate {
        defer { nextGate += 1 }
        gates[nextGate] = []
        return Gate(id: nextGate)
    }

    // MARK: Sending

    /// Produces every part for one input message; the message is settled when all are acknowledged. A record over
    /// the size limit is not produced: the input is dead-lettered as `record-too-large` instead.
    public func send(_ message: KafkaMessage, purpose: Purpose, parts: [Part], span: MessageSpan) {
        precondition(parts.count <= Self.maxParts, "at most \(Self.maxParts) outputs per input message")
        if case .deadLetter = purpose {
        } else if let big = parts.first(where: { $0.wireSize > maxRecordBytes }) {
            for part in parts { if let g = part.opens { resolve(g, open: false) } }
            deadLetter(
                message, code: DeadLetter.Code.recordTooLarge.rawValue,
                reason:
                    "the \(big.topic) record would take \(big.wireSize) bytes, above the producer's limit of \(maxRecordBytes) bytes (message.max.bytes)",
                span: span)
            return
        }
        enqueue(Entry(message: message, span: span, purpose: purpose, parts: parts))
    }

    /// Sends `message` to the dead-letter topic with `code` and `reason`, cut down to fit the size limit.
    public func deadLetter(_ message: KafkaMessage, code: String, reason: String, span: MessageSpan) {
        logger.warning(
            "dead-lettering message",
            metadata: [
                "topic": .string(message.topic), "partition": .stringConvertible(message.partition),
                "offset": .stringConvertible(message.offset), "code": .string(code),
                "reason": .string(String(reason.prefix(500))),
            ])
        let letter = DeadLetter.letter(
            for: message, code: code, reason: reason, version: settings.version, trace: span.headers,
            limit: maxRecordBytes)
        if letter.cut != .none { logCut(message, letter.cut) }
        let part = Part(topic: settings.deadLetterTopic, key: letter.key, value: letter.value, headers: letter.headers)
        enqueue(
            Entry(
                message: message, span: span, purpose: .deadLetter(code: code), parts: [part], cut: letter.cut,
                reason: reason))
    }

    /// Takes `entry` in flight under a new token, counts its bytes and produces its parts.
    private func enqueue(_ entry: Entry) {
        var entry = entry
        entry.bytes = entry.message.wireSize + entry.parts.reduce(0) { $0 + $1.wireSize }
        let token = nextToken
        nextToken += 1
        if entries.isEmpty { lastReport = .now() }
        for i in entry.parts.indices where entry.parts[i].afterOthers || entry.parts[i].waitsFor != nil {
            if let g = entry.parts[i].waitsFor {
                // A gate resolved before this part was sent (a caller that broke the order) could have opened
                // ahead of it: the part is dropped, never published ahead of its page.
                guard gates[g.id] != nil else {
                    onDropped(entry.message, entry.parts[i])
                    continue
                }
                gates[g.id]!.append((token, i))
            }
            entry.deferred |= 1 << i
        }
        entries[token] = entry
        inFlightBytes += entry.bytes
        for i in entry.parts.indices where !entry.parts[i].afterOthers && entry.parts[i].waitsFor == nil {
            produce(token, i)
        }
        settleIfDone(token)
    }

    private func logCut(_ message: KafkaMessage, _ cut: DeadLetter.Cut) {
        logger.warning(
            "dead letter cut to fit",
            metadata: [
                "topic": .string(message.topic), "partition": .stringConvertible(message.partition),
                "offset": .stringConvertible(message.offset), "cut": .string("\(cut)"),
                "limit": .stringConvertible(maxRecordBytes),
            ])
    }

    /// Produces part `i` of entry `token`; a local failure is handled like a delivery report.
    private func produce(_ token: Int, _ i: Int) {
        guard let part = entries[token]?.parts[i] else { return }
        while true {
            do {
                try producer.produce(
                    topic: part.topic, partition: part.partition, key: part.key, value: part.value,
                    headers: part.headers, token: token << 3 | i)
                entries[token]!.unacknowledged |= 1 << i
                unacknowledgedParts += 1
            } catch {
                if error.isQueueFull {
                    handle(producer.poll(timeoutMs: 100))
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
            if entries[token]?.rejection == nil { entries[token]?.rejection = (topic, error) }
        case .replaceProducer:
            markWaiting(token, i)
            if replacementDue == nil { replacementDue = "\(topic): \(error)" }
        case .wait:
            markWaiting(token, i)
            block(reason: "\(topic): \(error)")
        }
    }

    private func markWaiting(_ token: Int, _ i: Int) {
        guard let e = entries[token], e.waiting & (1 << i) == 0 else { return }
        entries[token]!.waiting |= 1 << i
        waitingParts += 1
    }

    /// The topics of the records produced and not yet acknowledged, sorted.
    var unacknowledgedTopics: [String] {
        var topics = Set<String>()
        for e in entries.values where e.unacknowledged != 0 {
            for i in e.parts.indices where e.unacknowledged & (1 << i) != 0 { topics.insert(e.parts[i].topic) }
        }
        return topics.sorted()
    }

    // MARK: Reports

    /// Serves the producer for up to `timeoutMs` (flushing first when `flush`), handles what it reports, replaces
    /// a failed or stalled producer and sends waiting records again when their backoff is over.
    public func service(timeoutMs: Int32 = 0, flush: Bool = false) {
        handle(flush ? producer.flush(timeoutMs: timeoutMs).reports : producer.poll(timeoutMs: timeoutMs))
        if let fatal = producer.fatalError, replacementDue == nil { replacementDue = "fatal producer error: \(fatal)" }
        let now = DispatchTime.now()
        if replacementDue == nil, unacknowledgedParts > 0,
            now.uptimeNanoseconds &- lastReport.uptimeNanoseconds > UInt64(settings.stallMs) * 1_000_000
        {
            replacementDue =
                "no acknowledgement for \(settings.stallMs) ms from \(unacknowledgedTopics.joined(separator: ", "))"
            block(reason: replacementDue!)
        }
        if let reason = replacementDue, now.uptimeNanoseconds &- lastReplacement.uptimeNanoseconds >= 1_000_000_000 {
            replaceProducer(reason: reason)
        } else if let b = blocked, waitingParts > 0, now >= b.nextAttempt {
            blocked?.retried = true
            metrics?.retried(parts: waitingParts)
            resendWaiting()
        }
    }

    /// Handles delivery reports: acknowledged parts, failures by disposition, settled messages.
    func handle(_ reports: [DeliveryReport]) {
        guard !reports.isEmpty else { return }
        lastReport = .now()
        var delivered = false
        for report in reports {
            let token = report.token >> 3, i = report.token & 7
            guard let e = entries[token], e.unacknowledged & (1 << i) != 0 else { continue }
            entries[token]!.unacknowledged &= ~(1 << i)
            unacknowledgedParts -= 1
            if let error = report.error {
                failed(token, i, topic: report.topic, error: error)
            } else {
                delivered = true
                onAcknowledged?(e.message, e.parts[i], report)
                release(token, i)
                if let g = e.parts[i].opens { resolve(g, open: true) }
            }
            settleIfDone(token)
        }
        if delivered, blocked != nil, waitingParts == 0 { unblock() }
    }

    /// Settles entry `token` once nothing of it is unacknowledged or waiting; first produces its deferred parts,
    /// once the others are acknowledged (never when one was refused: the input is dead-lettered instead).
    private func settleIfDone(_ token: Int) {
        guard let e = entries[token], e.unacknowledged == 0, e.waiting == 0 else { return }
        if e.deferred != 0 && e.rejection == nil {
            // Parts still waiting for a gate stay deferred; the gate settles them when it opens or is dropped.
            let ready = e.parts.indices.filter { e.deferred & (1 << $0) != 0 && e.parts[$0].waitsFor == nil }
            guard !ready.isEmpty else { return }
            for i in ready { entries[token]!.deferred &= ~(1 << i) }
            for i in ready { produce(token, i) }
            settleIfDone(token)
            return
        }
        if let (topic, error) = e.rejection {
            if case .deadLetter(let code) = e.purpose {
                refusedDeadLetter(token, code: code, topic: topic, error: error)
                return
            }
            remove(token)
            deadLetter(
                e.message,
                code: error.isRecordTooLarge
                    ? DeadLetter.Code.recordTooLarge.rawValue : DeadLetter.Code.produceFailed.rawValue,
                reason: "\(topic): \(error.description)", span: e.span)
            return
        }
        remove(token)
        let settlement: Settlement
        switch e.purpose {
        case .record: settlement = .published
        case .tombstone: settlement = .tombstoned
        case .skip: settlement = .skipped
        case .deadLetter(let code): settlement = .deadLettered(code: code)
        }
        e.span.end(settlement)
        onSettled(e.message, settlement)
    }

    /// The dead-letter topic refused a dead letter: cut it further, or (already minimal) wait as for a blocked output.
    private func refusedDeadLetter(_ token: Int, code: String, topic: String, error: KafkaError) {
        guard var e = entries[token] else { return }
        e.rejection = nil
        if e.cut < .provenanceOnly {
            // Refused by the cluster at this size (or for its content): keep less of the input.
            let next: DeadLetter.Cut = error.isRecordTooLarge && e.cut == .none ? .fitted : .provenanceOnly
            let limit = error.isRecordTooLarge ? min(maxRecordBytes, e.parts[0].wireSize / 2) : maxRecordBytes
            let letter = DeadLetter.letter(
                for: e.message, code: code, reason: e.reason, version: settings.version, trace: e.span.headers,
                limit: limit, from: next)
            logCut(e.message, letter.cut)
            e.cut = letter.cut
            e.parts = [
                Part(topic: settings.deadLetterTopic, key: letter.key, value: letter.value, headers: letter.headers)
            ]
            entries[token] = e
            produce(token, 0)
            settleIfDone(token)
            return
        }
        entries[token] = e
        markWaiting(token, 0)
        block(reason: "\(topic) refuses even a minimal dead letter: \(error)")
    }

    /// Ends the spans of the messages still in flight (they stay in flight and will be processed again).
    public func abandonUnsettled(_ why: String) {
        for entry in entries.values { entry.span.abandon(why) }
    }

    private func remove(_ token: Int) {
        guard let e = entries.removeValue(forKey: token) else { return }
        inFlightBytes -= e.bytes
        // Settled without the part that opens a gate acknowledged (refused, dead-lettered): nothing will open it.
        for part in e.parts { if let g = part.opens { resolve(g, open: false) } }
        for i in e.parts.indices where e.deferred & (1 << i) != 0 {
            if let g = e.parts[i].waitsFor { unwait(g, token) }
        }
    }

    /// Part `i` of entry `token` is acknowledged: its value is no longer needed (nothing acknowledged is sent
    /// again), so its bytes leave the in-flight budget while the message waits for its other parts.
    private func release(_ token: Int, _ i: Int) {
        guard let part = entries[token]?.parts[i], part.value != nil else { return }
        let before = part.wireSize
        entries[token]!.parts[i].value = nil
        let freed = before - entries[token]!.parts[i].wireSize
        entries[token]!.bytes -= freed
        inFlightBytes -= freed
    }

    /// Opens gate `g` (its waiting parts become ready) or drops it (they are never produced).
    private func resolve(_ g: Gate, open: Bool) {
        guard let waiting = gates.removeValue(forKey: g.id) else { return }
        for (token, i) in waiting {
            guard let e = entries[token], e.deferred & (1 << i) != 0 else { continue }
            if open {
                entries[token]!.parts[i].waitsFor = nil
            } else {
                entries[token]!.deferred &= ~(1 << i)
                onDropped(e.message, e.parts[i])
            }
            settleIfDone(token)
        }
    }

    /// Forgets that entry `token` waits for `g` (the entry was removed).
    private func unwait(_ g: Gate, _ token: Int) {
        gates[g.id]?.removeAll { $0.token == token }
    }

    // MARK: Blocked output

    private func block(reason: String) {
        let now = DispatchTime.now()
        if var b = blocked {
            // A failed round of re-sends doubles the wait, once per round.
            if b.retried {
                b.backoffMs = min(b.backoffMs * 2, settings.retryBackoffMs.max)
                b.retried = false
            }
            b.reason = reason
            b.nextAttempt = now + .milliseconds(b.backoffMs)
            blocked = b
            return
        }
        let first = settings.retryBackoffMs.first
        blocked = Blocked(reason: reason, since: now, nextAttempt: now + .milliseconds(first), backoffMs: first)
        logger.warning(
            "output blocked; fetching pauses and records are sent again until the cluster takes them",
            metadata: ["reason": .string(reason)])
        onBlockedChange(reason)
    }

    private func unblock() {
        guard let b = blocked else { return }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds &- b.since.uptimeNanoseconds) / 1e9
        blocked = nil
        metrics?.outputBlocked(seconds: seconds)
        logger.info("output unblocked", metadata: ["seconds": .string(String(format: "%.1f", seconds))])
        onBlockedChange(nil)
    }

    /// Sends every waiting part again, oldest message first, so each partition keeps its order.
    private func resendWaiting() {
        for token in entries.keys.sorted() {
            guard let e = entries[token], e.waiting != 0 else { continue }
            for i in e.parts.indices where e.waiting & (1 << i) != 0 {
                entries[token]!.waiting &= ~(1 << i)
                waitingParts -= 1
                produce(token, i)
            }
            settleIfDone(token)
        }
    }

    // MARK: Producer replacement

    /// Replaces the producer and sends everything unacknowledged again, in order. The old producer's queue is
    /// purged first; its reports are dropped, since every record it held is sent again.
    func replaceProducer(reason: String) {
        logger.warning(
            "replacing the producer and sending what is unacknowledged again",
            metadata: [
                "reason": .string(reason), "in-flight": .stringConvertible(entries.count),
            ])
        lastReplacement = .now()
        replacementDue = nil
        _ = producer.purge()
        do {
            producer = try KafkaProducer(configuration: settings.producer, idempotent: true)
        } catch {
            // The same settings made the first producer, so this is passing (memory, threads): try again later.
            logger.error("cannot create a new producer; trying again", metadata: ["error": .string(error.description)])
            replacementDue = reason
            return
        }
        metrics?.producerReplaced()
        lastReport = .now()
        for token in entries.keys {
            let unacknowledged = entries[token]!.unacknowledged
            guard unacknowledged != 0 else { continue }
            entries[token]!.unacknowledged = 0
            unacknowledgedParts -= unacknowledged.nonzeroBitCount
            entries[token]!.waiting |= unacknowledged
            waitingParts += unacknowledged.nonzeroBitCount
        }
        resendWaiting()
    }

    // MARK: Draining

    /// Waits until everything is settled, `deadline` passes or `stop()` says so; returns whether all settled.
    @discardableResult
    public func drain(until deadline: DispatchTime, stop: () -> Bool = { false }) -> Bool {
        while !entries.isEmpty && DispatchTime.now() < deadline && !stop() {
            let left = (deadline.uptimeNanoseconds &- DispatchTime.now().uptimeNanoseconds) / 1_000_000
            service(timeoutMs: Int32(max(1, min(100, left))), flush: true)
        }
        return entries.isEmpty
    }
}
