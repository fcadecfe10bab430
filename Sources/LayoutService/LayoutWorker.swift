import Dispatch
import Foundation
public import Kafka
public import LayoutCompiler
import LayoutRecord
public import Logging

/// The consume → compile → publish/dead-letter → commit loop. Runs on one thread, which owns the Kafka clients.
public final class LayoutWorker {
    /// Why a message's output was produced.
    enum Purpose {
        case record
        case tombstone
        /// Skipped, but a page's latest layout is being cleared.
        case skip
        case deadLetter(code: String)
    }

    /// One message produced to a topic on behalf of an input message.
    struct Part {
        var topic: String
        var partition: Int32? = nil
        var key: [UInt8]?
        var value: [UInt8]?
        var headers: [KafkaHeader]
    }

    /// An input message whose outputs are not all acknowledged yet.
    struct InFlight {
        let message: KafkaMessage
        let purpose: Purpose
        /// What was produced, kept so a replaced producer can send it again.
        let parts: [Part]
        var remaining: Int
        var failure: (topic: String, error: KafkaError)?
    }

    public static let contentType = "application/vnd.layout-record+json; version=1"
    public static let changeSetContentType = "application/vnd.layout-change-set+json; version=1"

    let settings: ServeSettings
    let compiler: LayoutCompiler
    let status: WorkerStatus
    let metrics: WorkerMetrics
    var logger: Logger
    private let consumer: KafkaConsumer
    private var producer: KafkaProducer
    private let producerConfig: KafkaConfiguration
    /// When the worker last heard from the producer while waiting for acknowledgements.
    private var lastDelivery = DispatchTime.now()
    /// Producer replacements since the last successful delivery.
    private var replacements = 0
    private var tracker = OffsetTracker()
    private var inFlight: [Int: InFlight] = [:]
    private var nextToken = 1
    private var paused = false
    private var assigned: Set<TopicPartition> = []
    private var revokedDuringPoll: Set<TopicPartition> = []
    private var lastCommit = DispatchTime.now()
    private var fatal: KafkaError?
    private var firstAssigned: DispatchTime?
    private var changes: ChangeStage?
    private let stateLoader: StateLoader?
    /// Accounting so far.
    public private(set) var counts = WorkerCounts()

    public init(settings: ServeSettings, compiler: LayoutCompiler, status: WorkerStatus, metrics: WorkerMetrics, logger: Logger) throws(KafkaError) {
        self.settings = settings
        self.compiler = compiler
        self.status = status
        self.metrics = metrics
        self.logger = logger
        var consumerProps = ["auto.offset.reset": "earliest", "partition.assignment.strategy": "cooperative-sticky"]
        for (k, v) in settings.consumerProperties { consumerProps[k] = v }
        consumer = try KafkaConsumer(configuration: settings.kafka, groupID: settings.groupID, properties: consumerProps)
        var producerConfig = settings.kafka
        for (k, v) in settings.producerProperties { producerConfig.properties[k] = v }
        if producerConfig.properties["message.max.bytes"] == nil {
            producerConfig.properties["message.max.bytes"] = String(max(1_000_000, settings.maxMessageBytes * 2 + 100_000))
        }
        producer = try KafkaProducer(configuration: producerConfig, idempotent: true)
        self.producerConfig = producerConfig
        if let c = settings.changes {
            changes = ChangeStage(settings: c, compiler: compiler)
            stateLoader = StateLoader(settings: c, kafka: settings.kafka, logger: logger)
        } else {
            stateLoader = nil
        }
    }

    /// Runs until a stop is requested (or `stopAfter` messages are accounted for), then drains, commits and leaves.
    public func run() throws(KafkaError) {
        consumer.onRebalance { [unowned self] event in self.rebalance(event) }
        try consumer.subscribe(settings.inputTopics)
        logger.info("worker started", metadata: [
            "input": .string(settings.inputTopics.joined(separator: ",")), "output": .string(settings.outputTopic),
            "dead-letter": .string(settings.deadLetterTopic), "group": .string(settings.groupID),
        ])
        while !status.stopRequested && fatal == nil {
            if let limit = settings.stopAfter, counts.consumed >= limit, counts.inFlight == 0 { break }
            let batch = fetch()
            process(batch)
            handle(producer.poll(timeoutMs: 0))
            applyBackpressure()
            if !inFlight.isEmpty, DispatchTime.now().uptimeNanoseconds - lastDelivery.uptimeNanoseconds > UInt64(settings.producerStallMs) * 1_000_000 {
                replaceProducer(reason: "no acknowledgement for \(settings.producerStallMs) ms")
            }
            if DispatchTime.now().uptimeNanoseconds - lastCommit.uptimeNanoseconds > UInt64(settings.commitIntervalMs) * 1_000_000 {
                commit(synchronous: false)
                updateLag()
            }
        }
        shutdown()
        if let fatal { throw fatal }
    }

    // MARK: Fetching

    private func fetch() -> [KafkaMessage] {
        var batch: [KafkaMessage] = []
        let limit = settings.stopAfter.map { min(settings.batchSize, max(0, $0 - counts.consumed)) } ?? settings.batchSize
        revokedDuringPoll.removeAll()
        while batch.count < limit && !status.stopRequested {
            guard let result = consumer.poll(timeoutMs: batch.isEmpty ? 100 : 0) else { break }
            switch result {
            case .success(let m): batch.append(m)
            case .failure(let e):
                if e.isFatal {
                    fatal = e
                    return []
                }
                logger.warning("consumer error", metadata: ["error": .string(e.description)])
            }
        }
        if limit == 0 { _ = consumer.poll(timeoutMs: 50) }
        // Messages of partitions revoked while polling belong to the new owner now.
        if !revokedDuringPoll.isEmpty {
            batch.removeAll { revokedDuringPoll.contains(TopicPartition($0.topic, $0.partition)) }
        }
        return batch
    }

    // MARK: Compiling and producing

    private func process(_ batch: [KafkaMessage]) {
        guard !batch.isEmpty else { return }
        var outcomes = [MessageOutcome](repeating: .skip, count: batch.count)
        let compiler = self.compiler
        let settings = self.settings
        let metrics = self.metrics
        outcomes.withUnsafeMutableBufferPointer { out in
            let results = UnsafeMutableSendableBuffer(out)
            // Compiling spreads over the cores; publishing below stays in offset order per partition.
            DispatchQueue.concurrentPerform(iterations: batch.count) { i in
                results.buffer[i] = Self.compile(batch[i], compiler: compiler, settings: settings, metrics: metrics)
            }
        }
        let pages = pageOutcomes(batch, outcomes)
        for (i, (message, outcome)) in zip(batch, outcomes).enumerated() {
            counts.consumed += 1
            metrics.consumed.increment()
            tracker.begin(topic: message.topic, partition: message.partition, offset: message.offset)
            switch outcome {
            case .skip:
                if case .cleared(let page)? = pages?[i] {
                    send(message, purpose: .skip, parts: [stateTombstone(message, page: page)])
                } else {
                    finishSkipped(message)
                }
            case .tombstone:
                var parts = [Part(topic: settings.outputTopic, key: message.key, value: nil, headers: message.headers)]
                if case .cleared(let page)? = pages?[i], let c = settings.changes {
                    parts.append(stateTombstone(message, page: page))
                    parts.append(Part(topic: c.changesTopic, key: Array(page.utf8), value: nil, headers: message.headers))
                }
                send(message, purpose: .tombstone, parts: parts)
            case .record(let bytes, let diagnostics):
                var byCode: [String: Int] = [:]
                for d in diagnostics { byCode[d.code, default: 0] += 1 }
                for (code, n) in byCode { metrics.diagnostic(code: code, count: n) }
                publish(message, record: bytes, page: pages?[i])
            case .deadLetter(let code, let reason):
                deadLetter(message, code: code, reason: reason)
            }
        }
        metrics.inFlight.record(inFlight.count)
        if let c = changes { metrics.store(bytes: c.store.bytes, layouts: c.store.count, evictions: c.store.evictions) }
    }

    /// With changes on, what each message of the batch does to its page (records and tombstones; nil otherwise).
    private func pageOutcomes(_ batch: [KafkaMessage], _ outcomes: [MessageOutcome]) -> [ChangeStage.Outcome?]? {
        guard changes != nil else { return nil }
        var indices: [Int] = []
        var items: [(message: KafkaMessage, record: [UInt8]?)] = []
        for (i, outcome) in outcomes.enumerated() {
            switch outcome {
            case .record(let bytes, _): items.append((batch[i], bytes))
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
    private func publish(_ message: KafkaMessage, record: [UInt8], page: ChangeStage.Outcome?) {
        let headers = Self.recordHeaders(for: message)
        guard let c = settings.changes, let page else {
            send(message, purpose: .record, parts: [Part(topic: settings.outputTopic, key: message.key, value: record, headers: headers)])
            return
        }
        let step: ChangeStage.Step
        switch page {
        case .changed(let s): step = s
        case .failed(let error):
            // The compiler wrote the record, so this is a bug, not bad input: keep the message visible.
            deadLetter(message, code: "change-set-failed", reason: error.description)
            return
        case .untracked, .cleared:
            metrics.changeSetSkipped()
            send(message, purpose: .record, parts: [Part(topic: settings.outputTopic, key: message.key, value: record, headers: headers)])
            return
        }
        metrics.changeSet(step.changeSet.summary)
        let pageKey = Array(step.pageKey.utf8)
        var changeHeaders = message.headers.filter { $0.name != "content-type" }
        changeHeaders.append(KafkaHeader("content-type", text: Self.changeSetContentType))
        send(message, purpose: .record, parts: [
            Part(topic: settings.outputTopic, key: message.key, value: step.record, headers: headers),
            Part(topic: c.changesTopic, key: pageKey, value: step.changeSet.bytes, headers: changeHeaders),
            Part(topic: c.stateTopic, partition: message.partition, key: pageKey, value: step.record, headers: [
                KafkaHeader(StateLoader.sourceTopicHeader, text: message.topic), KafkaHeader("content-type", text: Self.contentType),
            ]),
        ])
    }

    /// The tombstone that clears a page's latest layout.
    private func stateTombstone(_ message: KafkaMessage, page: String) -> Part {
        Part(topic: settings.changes?.stateTopic ?? "", partition: message.partition, key: Array(page.utf8), value: nil,
             headers: [KafkaHeader(StateLoader.sourceTopicHeader, text: message.topic)])
    }

    /// The input's headers plus the record's content type and version.
    static func recordHeaders(for message: KafkaMessage) -> [KafkaHeader] {
        var headers = message.headers.filter { $0.name != "content-type" && $0.name != "layout-record-version" }
        headers.append(KafkaHeader("content-type", text: contentType))
        headers.append(KafkaHeader("layout-record-version", text: String(LayoutRecord.formatVersion)))
        return headers
    }

    /// The shared outcome, timed; a pass-through run (benchmark baseline) publishes the input unchanged.
    static func compile(_ message: KafkaMessage, compiler: LayoutCompiler, settings: ServeSettings, metrics: WorkerMetrics) -> MessageOutcome {
        if settings.passThrough, let value = message.value, value.count <= settings.maxMessageBytes { return .record(value, diagnostics: []) }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { metrics.compileLatency.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start)) }
        return .of(message, compiler: compiler, tombstones: settings.tombstones, maxMessageBytes: settings.maxMessageBytes)
    }

    private func deadLetter(_ message: KafkaMessage, code: String, reason: String) {
        logger.warning("dead-lettering message", metadata: [
            "topic": .string(message.topic), "partition": .stringConvertible(message.partition),
            "offset": .stringConvertible(message.offset), "code": .string(code), "reason": .string(reason),
        ])
        let headers = DeadLetter.headers(for: message, code: code, reason: reason, version: settings.version)
        send(message, purpose: .deadLetter(code: code), parts: [Part(topic: settings.deadLetterTopic, key: message.key, value: message.value, headers: headers)])
    }

    /// Produces every part for one input message under one token; the message is done when all are acknowledged.
    private func send(_ message: KafkaMessage, purpose: Purpose, parts: [Part]) {
        let token = nextToken
        nextToken += 1
        if inFlight.isEmpty { lastDelivery = .now() }
        inFlight[token] = InFlight(message: message, purpose: purpose, parts: parts, remaining: 0, failure: nil)
        enqueue(token, parts)
    }

    /// Produces `parts` under `token`, counting what was queued and noting the first local failure.
    private func enqueue(_ token: Int, _ parts: [Part]) {
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

    private func finishSkipped(_ message: KafkaMessage) {
        counts.skipped += 1
        metrics.skipped.increment()
        tracker.complete(topic: message.topic, partition: message.partition, offset: message.offset)
    }

    /// Replaces a producer that was fenced, or that acknowledged nothing for `producerStallMs` while messages wait (e.g.
    /// an idempotent producer whose id a restarted broker no longer knows), re-sending everything in flight in order.
    private func replaceProducer(reason: String) {
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

    private func handle(_ reports: [DeliveryReport]) {
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
    private func finish(_ token: Int) {
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

    // MARK: Backpressure, commits, rebalances

    private func applyBackpressure() {
        if !paused && inFlight.count >= settings.maxInFlight {
            consumer.pause(Array(assigned))
            paused = true
            logger.debug("paused fetching", metadata: ["in-flight": .stringConvertible(inFlight.count)])
        } else if paused && inFlight.count <= settings.maxInFlight / 2 {
            consumer.resume(Array(assigned))
            paused = false
            logger.debug("resumed fetching", metadata: ["in-flight": .stringConvertible(inFlight.count)])
        }
        if paused { handle(producer.poll(timeoutMs: 20)) }
    }

    private func commit(synchronous: Bool) {
        lastCommit = DispatchTime.now()
        let offsets = tracker.committable()
        guard !offsets.isEmpty else { return }
        do {
            try consumer.commit(offsets.map { TopicPartition($0.topic, $0.partition, offset: $0.offset) }, synchronous: synchronous)
            tracker.markCommitted(offsets)
        } catch {
            logger.warning("commit failed", metadata: ["error": .string(error.description)])
        }
    }

    private func updateLag() {
        for tp in assigned {
            guard let (_, high) = consumer.cachedWatermarks(topic: tp.topic, partition: tp.partition), high >= 0 else { continue }
            let done = tracker.nextOffset(topic: tp.topic, partition: tp.partition) ?? high
            metrics.lag(topic: tp.topic, partition: tp.partition, value: max(0, high - done))
        }
    }

    /// Waits (up to the shutdown bound) for every in-flight record, handling reports and any dead letters they cause.
    private func drain(deadline: DispatchTime) {
        while !inFlight.isEmpty && DispatchTime.now() < deadline && fatal == nil {
            let left = Int32(max(1, min(500, (deadline.uptimeNanoseconds &- DispatchTime.now().uptimeNanoseconds) / 1_000_000)))
            handle(producer.flush(timeoutMs: left).reports)
        }
    }

    private func rebalance(_ event: RebalanceEvent) {
        switch event {
        case .assigned(let partitions):
            if firstAssigned == nil { firstAssigned = .now() }
            rebuildState(partitions)
            for p in partitions { assigned.insert(TopicPartition(p.topic, p.partition)) }
            if paused { consumer.pause(partitions) }
            logger.info("partitions assigned", metadata: ["partitions": .string(partitions.map(\.description).joined(separator: ","))])
        case .revoked(let partitions):
            // Finish what is in flight for these partitions (bounded), commit it, and forget them.
            drain(deadline: .now() + .milliseconds(settings.shutdownTimeoutMs / 2))
            commit(synchronous: true)
            for p in partitions {
                let key = TopicPartition(p.topic, p.partition)
                assigned.remove(key)
                revokedDuringPoll.insert(key)
                changes?.store.removePartition(topic: p.topic, partition: p.partition)
                let abandoned = tracker.remove(topic: p.topic, partition: p.partition)
                if abandoned > 0 {
                    logger.warning("abandoned in-flight messages of a revoked partition (they will be redelivered)",
                                   metadata: ["partition": .string(key.description), "count": .stringConvertible(abandoned)])
                }
            }
            logger.info("partitions revoked", metadata: ["partitions": .string(partitions.map(\.description).joined(separator: ","))])
        }
        status.setAssigned(assigned.count)
        status.setReady(!assigned.isEmpty)
    }

    /// Reads the latest layouts of newly assigned partitions before any of their messages is processed.
    private func rebuildState(_ partitions: [TopicPartition]) {
        guard let loader = stateLoader, changes != nil, !partitions.isEmpty else { return }
        do {
            let loaded = try loader.load(partitions, into: &changes!.store)
            metrics.stateRebuilt(seconds: loaded.seconds)
            logger.info("latest layouts rebuilt", metadata: [
                "partitions": .string(partitions.map(\.description).joined(separator: ",")), "layouts": .stringConvertible(loaded.layouts),
                "tombstones": .stringConvertible(loaded.tombstones), "unreadable": .stringConvertible(loaded.unreadable),
                "seconds": .string(String(format: "%.3f", loaded.seconds)),
            ])
        } catch {
            // Without its state the worker would publish change sets against the wrong base: stop instead.
            logger.error("cannot rebuild latest layouts; stopping", metadata: ["error": .string(error.description)])
            fatal = error
        }
    }

    private func shutdown() {
        logger.info("draining", metadata: ["in-flight": .stringConvertible(inFlight.count)])
        let deadline = DispatchTime.now() + .milliseconds(settings.shutdownTimeoutMs * 3 / 4)
        drain(deadline: deadline)
        commit(synchronous: true)
        consumer.close()
        stateLoader?.close()
        status.setReady(false)
        logger.info("stopped", metadata: [
            "consumed": .stringConvertible(counts.consumed), "published": .stringConvertible(counts.published),
            "dead-lettered": .stringConvertible(counts.deadLettered), "skipped": .stringConvertible(counts.skipped),
            "in-flight": .stringConvertible(counts.inFlight),
            "elapsed-ms": .stringConvertible(firstAssigned.map { (DispatchTime.now().uptimeNanoseconds - $0.uptimeNanoseconds) / 1_000_000 } ?? 0),
        ])
    }
}

/// Lets `concurrentPerform` write each result into its own slot of one buffer: every index is written by exactly
/// one iteration and read only after `concurrentPerform` returns, so no slot is shared between threads.
struct UnsafeMutableSendableBuffer<T>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<T>
    init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }
}
