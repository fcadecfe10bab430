public import ConfigReload
public import Delivery
import Dispatch
public import Kafka
import LayoutCompiler
public import Logging
import Ops
import Tracing

/// The consume → compile → publish/dead-letter → commit loop: it moves batches between its owners and decides
/// nothing they own. Runs on one thread, which owns the Kafka clients.
///
/// One message's path: `ConsumerSession.fetch` reads it (its offset in progress) → `compile` makes its
/// `MessageOutcome` (the batch in parallel) → with change sets on, `PageStage.step` says what it does to its page
/// and `StateWrite.assign` whether it stores the page's latest layout → `OutputPlan` builds its outputs →
/// `DeliveryEngine` produces them in order and settles the message once all are acknowledged → the session marks
/// its offset done and commits it once every earlier offset is done. docs/design.md ("Ordering guarantees") lists
/// what this order guarantees and the test of each guarantee.
public final class LayoutWorker {
    let settings: ServeSettings
    /// Where a reloaded config's compiler comes from; taken up before a batch, never within one.
    let compilers: CompilerSlot
    var compiler: CompilerSlot.Compiler
    let status: WorkerStatus
    let metrics: WorkerMetrics
    /// One span per message, and the trace headers of its outputs.
    let tracer: MessageTracer
    let logger: Logger
    /// The group: messages in, offsets done and committed, rebalances.
    let session: ConsumerSession
    /// Produces, acknowledges, retries and dead-letters every output (shared with `replay`).
    let delivery: DeliveryEngine
    /// How a fetch waits on the outputs in flight (made once: a fetch takes it while any are in flight).
    let awaitOutputs: (Int32) -> Void
    /// The pages, with change sets on.
    let pages: PageStage?
    /// Remembers what was being compiled, so a message that kills the worker twice is dead-lettered.
    let breaker: CrashBreaker?
    /// Fetching waits because the in-flight limits are reached (librdkafka keeps its bounded prefetch meanwhile).
    var full = false
    var fatal: KafkaError?
    /// When the last message was accounted for (settled or skipped).
    var lastSettled: ContinuousClock.Instant?
    /// When the worker last said it cannot reach the brokers.
    var lastUnreachableWarning: ContinuousClock.Instant?
    /// How large a batch's outputs are against its inputs (`fetch` leaves room for them).
    var outputSize = OutputSizeEstimate()
    /// Accounting so far.
    public internal(set) var counts = WorkerCounts()

    public init(
        settings: ServeSettings, compilers: CompilerSlot, status: WorkerStatus, metrics: WorkerMetrics,
        tracer: MessageTracer, logger: Logger
    ) throws(KafkaError) {
        self.settings = settings
        self.compilers = compilers
        self.compiler = compilers.compiler
        self.status = status
        self.metrics = metrics
        self.tracer = tracer
        self.logger = logger
        session = try ConsumerSession(settings: settings, status: status, metrics: metrics, logger: logger)
        var producerConfig = settings.producerKafka
        producerConfig.statisticsHandler = { [metrics] json in
            if let stats = KafkaStatistics(json: json) { metrics.statistics(stats) }
        }
        delivery = try DeliveryEngine(
            settings: .init(
                producer: producerConfig, deadLetterTopic: settings.deadLetterTopic, version: settings.version,
                stall: settings.limits.producerStall),
            maxInputBytes: settings.limits.maxMessageBytes, metrics: metrics, logger: logger)
        awaitOutputs = { [delivery] ms in delivery.service(timeoutMs: ms) }
        breaker = CrashBreaker.forWorker(settings: settings, status: status, metrics: metrics, logger: logger)
        pages = settings.changes.map { c in
            PageStage(
                settings: c, kafka: settings.kafka, compiler: compilers.compiler.compiler, metrics: metrics,
                status: status, logger: logger)
        }
    }

    /// Runs until a stop is requested (or `stopAfter` messages are accounted for), then drains, commits and leaves.
    public func run() throws(KafkaError) {
        listen()
        breaker?.recover()
        try session.subscribe(rebalancing)
        logger.info(
            "worker started",
            metadata: [
                "input": .string(settings.inputTopics.joined(separator: ",")), "output": .string(settings.outputTopic),
                "dead-letter": .string(settings.deadLetterTopic), "group": .string(settings.groupID),
            ])
        while !status.stopRequested && fatal == nil && session.fatal == nil {
            status.beat()
            if let limit = settings.stopAfter, counts.consumed >= limit, counts.inFlight == 0 { break }
            process(full ? [] : fetch())
            delivery.service()
            pages?.flush()
            applyBackpressure()
            metrics.inFlight(messages: delivery.inFlightMessages, bytes: delivery.inFlightBytes)
            if session.commitDue {
                session.commit(synchronous: false)
                session.updateLag()
                reportReadiness()
            }
        }
        shutdown()
        if let fatal = fatal ?? session.fatal { throw fatal }
    }

    /// What the delivery engine reports: messages settled, outputs acknowledged or dropped, the output blocked.
    private func listen() {
        delivery.onSettled = { [unowned self] message, settlement in self.settled(message, settlement) }
        delivery.onDropped = { [unowned self] message, part in
            // The later message of the batch that was to store the page's latest layout could not: a change set
            // published now could be ahead of the stored page, so it is not (renderers fetch the latest layout).
            self.metrics.changeSetSkipped(reason: "state-not-stored")
            self.logger.warning(
                "change set not published: the page's latest layout was not stored",
                metadata: [
                    "topic": .string(message.topic), "partition": .stringConvertible(message.partition),
                    "offset": .stringConvertible(message.offset), "changes-topic": .string(part.topic),
                ])
        }
        delivery.onAcknowledged = { [unowned self] message, part, report in
            if part.topic == self.settings.outputTopic, let sent = message.timestamp {
                self.metrics.recordAcknowledged(inputTimestampMs: sent)
            }
            // A page's latest layout is on its topic: the page store may take it (and its checkpoint).
            self.pages?.acknowledged(message, part, report)
        }
        delivery.onBlockedChange = { [unowned self] reason in
            self.status.setOutputBlocked(reason)
            self.metrics.outputBlocked(reason != nil)
        }
    }

    /// What the worker does when partitions come and go (inside the session's poll).
    private var rebalancing: ConsumerSession.Rebalancing {
        .init(
            assigned: { [unowned self] partitions in
                do throws(KafkaError) {
                    try self.pages?.rebuild(partitions, clusterID: self.session.clusterID)
                } catch {
                    // Without its pages the worker would publish change sets against the wrong base: stop instead.
                    self.logger.error(
                        "cannot rebuild latest layouts; stopping", metadata: ["error": .string(error.description)])
                    self.fatal = error
                }
                self.breaker?.retain(partitions: self.session.assigned)
            },
            revoking: { [unowned self] _ in
                _ = self.delivery.drain(within: self.settings.shutdownTimeout / 2)
            },
            revoked: { [unowned self] partitions in
                self.pages?.flush()
                for p in partitions { self.pages?.forget(p) }
                self.breaker?.retain(partitions: self.session.assigned)
            })
    }

    /// Up to a batch, and no more input bytes than the in-flight byte budget has room for.
    private func fetch() -> [KafkaMessage] {
        let limit =
            settings.stopAfter.map { min(settings.batchSize, max(0, $0 - counts.consumed)) } ?? settings.batchSize
        // The batch's inputs and the outputs they will become must both fit in what the budget has left.
        return session.fetch(
            limit: limit,
            maxBytes: outputSize.inputBytes(fitting: settings.limits.maxInFlightBytes - delivery.inFlightBytes),
            awaiting: delivery.inFlightMessages > 0 ? awaitOutputs : nil)
    }

    // MARK: A batch

    /// Compiles a batch (in parallel), steps its pages, plans and sends each message's outputs in offset order.
    func process(_ batch: [KafkaMessage]) {
        guard !batch.isEmpty else { return }
        // A rebuild that failed inside the poll that fetched this batch: its pages were never loaded, so no message
        // is stepped or published; none is begun either, so none is committed and the next owner reads them all.
        if let fatal {
            logger.warning(
                "batch left unprocessed: the worker is stopping",
                metadata: ["messages": .stringConvertible(batch.count), "error": .string(fatal.description)])
            return
        }
        // A batch holding a message the worker died on is taken one message at a time, so a second death names it.
        if let breaker, batch.count > 1, batch.contains(where: { breaker.crashes($0) > 0 }) {
            for message in batch { process([message]) }
            return
        }
        if let breaker, batch.count == 1, breaker.crashes(batch[0]) >= CrashBreaker.crashesToDeadLetter {
            deadLetterCrashing(batch[0], breaker)
            return
        }
        takeUpReloadedConfig()
        breaker?.begin(batch)
        // Each message's span starts when its batch starts compiling.
        let started = DefaultTracerClock.now
        var items = BatchItem.compile(batch, with: compiler.compiler, settings: settings, metrics: metrics)
        if let pages {
            pages.step(&items, doneBefore: session.doneBefore)
            StateWrite.assign(&items, makeGate: delivery.makeGate)
        }
        // Compiled and diffed without dying: nothing in this batch is a suspect any more.
        breaker?.end(batch)
        let heldBefore = delivery.inFlightBytes
        defer { outputSize.learn(from: batch, added: delivery.inFlightBytes - heldBefore) }
        for item in items {
            begin(item.message)
            let span = tracer.start(item.message, at: started)
            if case .record(_, let diagnostics) = item.outcome { count(diagnostics) }
            let plan = OutputPlan(
                item, output: settings.outputTopic, pages: settings.changes, config: compiler.configHash,
                trace: span.headers)
            if let summary = plan.changeSet { metrics.changeSet(summary) }
            if let skipped = plan.skipped { metrics.changeSetSkipped(reason: skipped.rawValue) }
            if plan.republished > 0 { metrics.changeSetsRepublished(plan.republished) }
            delivery.deliver(plan.outputs, of: item.message, span: span)
        }
    }

    /// A message the worker died on `crashesToDeadLetter` times is dead-lettered without compiling it again.
    private func deadLetterCrashing(_ m: KafkaMessage, _ breaker: CrashBreaker) {
        begin(m)
        delivery.deadLetter(
            m, code: DeadLetter.Code.workerCrash.rawValue,
            reason: "the worker died \(breaker.crashes(m)) times while compiling this message; not compiled again",
            span: tracer.start(m))
        breaker.forget([m])
    }

    /// Counts a record's diagnostics by code.
    private func count(_ diagnostics: [(code: String, contentType: String)]) {
        var byCode: [String: Int] = [:]
        for d in diagnostics { byCode[d.code, default: 0] += 1 }
        for (code, n) in byCode { metrics.diagnostic(code: code, count: n) }
    }

    /// Uses the config a reload put in the slot, from this batch on (attribute carrying follows it too).
    private func takeUpReloadedConfig() {
        guard let newer = compilers.newer(than: compiler.generation) else { return }
        compiler = newer
        pages?.use(newer.compiler)
        logger.info("compiling with the reloaded config", metadata: ["config": .string(newer.configHash)])
    }

    /// Counts a consumed message and marks its offset in progress.
    private func begin(_ message: KafkaMessage) {
        counts.consumed += 1
        metrics.consumed.increment()
        session.begin(message)
    }

    /// Accounts for a message once all its outputs are acknowledged (or it was skipped).
    private func settled(_ message: KafkaMessage, _ settlement: DeliveryEngine.Settlement) {
        counts.settled.add(settlement)
        metrics.settled(settlement)
        session.settled(message)
        lastSettled = .now
    }
}
