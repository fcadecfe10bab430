public import Delivery
import Dispatch
import Foundation
public import Kafka
import LayoutCompiler
import LayoutRecord
public import Logging
public import Ops
import PageStore
import Tracing

/// The consume → compile → publish/dead-letter → commit loop. Runs on one thread, which owns the Kafka clients.
public final class LayoutWorker {
    typealias Part = DeliveryEngine.Part

    let settings: ServeSettings
    /// Where a reloaded config's compiler comes from; taken up before a batch, never within one.
    let compilers: CompilerSlot
    var compiler: CompilerSlot.Compiler
    let status: WorkerStatus
    let metrics: WorkerMetrics
    /// One span per message, and the trace headers of its outputs.
    let tracer: MessageTracer
    var logger: Logger
    let consumer: KafkaConsumer
    /// Produces, acknowledges, retries and dead-letters every output (shared with `replay`).
    let delivery: DeliveryEngine
    /// Remembers what was being compiled, so a message that kills the worker twice is dead-lettered.
    var breaker: CrashBreaker?
    var tracker = OffsetTracker()
    /// Partitions paused because the output is blocked (a wait that may outlast `max.poll.interval.ms`).
    var paused = false
    /// Fetching waits because the in-flight limits are reached (librdkafka keeps its bounded prefetch meanwhile).
    var full = false
    var assigned: Set<TopicPartition> = []
    var revokedDuringPoll: Set<TopicPartition> = []
    var lastCommit = DispatchTime.now()
    var fatal: KafkaError?
    var firstAssigned: DispatchTime?
    /// When the last message was accounted for (settled or skipped).
    var lastSettled: DispatchTime?
    var changes: ChangeStage?
    /// When the worker last said it cannot reach the brokers.
    var lastUnreachableWarning: DispatchTime?
    /// Per partition: the timestamp (ms) of the last settled message, for lag in seconds.
    var lastSettledTimestamp: [TopicPartition: Int64] = [:]
    let stateLoader: StateLoader?
    /// Whether opening the page store was tried (on the first assignment).
    var pageStoreTried = false
    /// The page store's figures as last read (uptime nanoseconds, bytes on disk, pages).
    var lastStoreFigures: (UInt64, (bytes: Int, pages: Int))?
    /// Accounting so far.
    public internal(set) var counts = WorkerCounts()

    public init(
        settings: ServeSettings, compilers: CompilerSlot, status: WorkerStatus, metrics: WorkerMetrics,
        tracer: MessageTracer,
        logger: Logger
    ) throws(KafkaError) {
        self.settings = settings
        self.compilers = compilers
        self.compiler = compilers.compiler
        self.status = status
        self.metrics = metrics
        self.tracer = tracer
        self.logger = logger
        // Precedence, for each client: the worker's defaults < --kafka-property < --consumer/--producer-property.
        var consumerConfig = settings.consumerKafka
        // librdkafka's statistics become metrics; the consumer's also tell membership and broker reachability.
        consumerConfig.statisticsHandler = { [status, metrics] json in
            guard let stats = KafkaStatistics(json: json) else { return }
            metrics.statistics(stats)
            if stats.isGroupMember { status.setJoined(true) }
            if stats.brokersUp > 0 {
                status.setUnreachable(nil)
            } else if status.unreachable == nil {
                status.setAllBrokersDown("no broker connection is up (\(stats.brokerStates))")
            }
        }
        consumerConfig.errorHandler = { [status, logger] error in
            if error.code == KafkaError.allBrokersDown {
                status.setAllBrokersDown(error.message)
            } else if error.code == KafkaError.transport {
                status.noteConnectionError(error.message)  // the most precise reason: which broker, and why
            }
            logger.warning("kafka consumer error", metadata: ["error": .string(error.description)])
        }
        consumer = try KafkaConsumer(
            configuration: consumerConfig, groupID: settings.groupID,
            defaults: ServeSettings.defaultConsumerProperties)
        var producerConfig = settings.producerKafka
        producerConfig.statisticsHandler = { [metrics] json in
            if let stats = KafkaStatistics(json: json) { metrics.statistics(stats) }
        }
        delivery = try DeliveryEngine(
            settings: .init(
                producer: producerConfig, deadLetterTopic: settings.deadLetterTopic, version: settings.version,
                stallMs: settings.limits.producerStallMs),
            maxInputBytes: settings.limits.maxMessageBytes, metrics: metrics, logger: logger)
        if let dir = settings.crashStateDirectory {
            let breaker = CrashBreaker(directory: dir, group: settings.groupID, logger: logger)
            breaker.onStateChange = { [status, metrics] reason in
                status.setCrashBreakerOff(reason)
                metrics.crashBreaker(enabled: reason == nil)
            }
            self.breaker = breaker
            metrics.crashBreaker(enabled: true)
        } else {
            status.setCrashBreakerOff("--crash-state-dir off")
            metrics.crashBreaker(enabled: false)
        }
        if let c = settings.changes {
            changes = ChangeStage(settings: c, compiler: compiler.compiler)
            stateLoader = StateLoader(settings: c, kafka: settings.kafka, logger: logger)
        } else {
            stateLoader = nil
        }
    }

    /// Runs until a stop is requested (or `stopAfter` messages are accounted for), then drains, commits and leaves.
    public func run() throws(KafkaError) {
        consumer.onRebalance { [unowned self] event in self.rebalance(event) }
        consumer.onAssigning { [unowned self] partitions in self.resumeOffsets(partitions) }
        consumer.onCommitted { [unowned self] results in self.commitAnswered(results) }
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
            if part.topic == settings.outputTopic, let sent = message.timestamp {
                metrics.recordAcknowledged(inputTimestampMs: sent)
            }
            // A page's latest layout is on its topic: the page store may take it (and its checkpoint).
            guard let c = settings.changes, part.topic == c.stateTopic, let key = part.key else { return }
            self.changes?.pages.acknowledged(
                WorkerPages.Key(
                    topic: message.topic, partition: message.partition, page: String(decoding: key, as: UTF8.self)),
                record: part.value, position: message.offset, stateOffset: report.offset)
        }
        delivery.onBlockedChange = { [unowned self] reason in
            self.status.setOutputBlocked(reason)
            self.metrics.outputBlocked(reason != nil)
        }
        breaker?.recover()
        try consumer.subscribe(settings.inputTopics)
        logger.info(
            "worker started",
            metadata: [
                "input": .string(settings.inputTopics.joined(separator: ",")), "output": .string(settings.outputTopic),
                "dead-letter": .string(settings.deadLetterTopic), "group": .string(settings.groupID),
            ])
        while !status.stopRequested && fatal == nil {
            status.beat()
            if let limit = settings.stopAfter, counts.consumed >= limit, counts.inFlight == 0 { break }
            let batch = full ? [] : fetch()
            process(batch)
            delivery.service()
            flushPages()
            applyBackpressure()
            metrics.inFlight(messages: delivery.inFlightMessages, bytes: delivery.inFlightBytes)
            if DispatchTime.now().uptimeNanoseconds - lastCommit.uptimeNanoseconds > UInt64(settings.commitIntervalMs)
                * 1_000_000
            {
                commit(synchronous: false)
                updateLag()
                reportReadiness()
            }
        }
        shutdown()
        if let fatal { throw fatal }
    }

    // MARK: Fetching

    /// Reads up to a batch, and no more input bytes than the in-flight byte budget has room for (at least one
    /// message, so a message larger than the budget still goes through).
    func fetch() -> [KafkaMessage] {
        var batch: [KafkaMessage] = []
        let room = settings.limits.maxInFlightBytes - delivery.inFlightBytes
        var bytes = 0
        let limit =
            settings.stopAfter.map { min(settings.batchSize, max(0, $0 - counts.consumed)) } ?? settings.batchSize
        revokedDuringPoll.removeAll()
        while batch.count < limit && bytes < room && !status.stopRequested {
            // Idle, the consumer may hold the loop 100 ms; with outputs awaiting their acknowledgement the loop
            // waits on the producer instead (a change set is produced once its latest layout is acknowledged: a
            // 100 ms poll here would add up to 100 ms to every change set's freshness).
            let waiting = batch.isEmpty && delivery.inFlightMessages > 0
            guard let result = consumer.poll(timeoutMs: batch.isEmpty && !waiting ? 100 : 0) else {
                if waiting { delivery.service(timeoutMs: 5) }
                break
            }
            switch result {
            case .success(let m):
                if batch.isEmpty, status.unreachable != nil { status.setUnreachable(nil) }
                bytes += m.wireSize
                batch.append(m)
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

    func process(_ batch: [KafkaMessage]) {
        guard !batch.isEmpty else { return }
        // A batch holding a message the worker died on is taken one message at a time, so a second death names it.
        if let breaker, batch.count > 1, batch.contains(where: { breaker.crashes($0) > 0 }) {
            for message in batch { process([message]) }
            return
        }
        if let breaker, batch.count == 1, breaker.crashes(batch[0]) >= CrashBreaker.crashesToDeadLetter {
            let m = batch[0]
            begin(m)
            delivery.deadLetter(
                m, code: DeadLetter.Code.workerCrash.rawValue,
                reason: "the worker died \(breaker.crashes(m)) times while compiling this message; not compiled again",
                span: tracer.start(m))
            breaker.forget(batch)
            return
        }
        takeUpReloadedConfig()
        breaker?.begin(batch)
        // Each message's span starts when its batch starts compiling.
        let started = DefaultTracerClock.now
        let compiler = self.compiler.compiler
        let settings = self.settings
        let metrics = self.metrics
        // Compiling spreads over the cores; publishing below stays in offset order per partition.
        let outcomes = ParallelMap.map(count: batch.count, jobs: batch.count) { i in
            Self.compile(batch[i], compiler: compiler, settings: settings, metrics: metrics)
        }
        let pages = pageOutcomes(batch, outcomes)
        let states = pages.map { stateWrites(batch, $0) }
        logger.debug(
            "batch",
            metadata: [
                "messages": .stringConvertible(batch.count),
                "stores": .stringConvertible(states?.filter { if case .store = $0 { true } else { false } }.count ?? 0),
            ])
        // Compiled and diffed without dying: nothing in this batch is a suspect any more.
        breaker?.end(batch)
        for (i, (message, outcome)) in zip(batch, outcomes).enumerated() {
            begin(message)
            let span = tracer.start(message, at: started)
            if case .record(_, let diagnostics, _) = outcome { count(diagnostics) }
            guard let changes = settings.changes, let page = pages?[i] else {
                delivery.deliver(
                    outcome, of: message, to: settings.outputTopic, config: self.compiler.configHash, span: span)
                continue
            }
            deliver(outcome, of: message, page: page, state: states?[i], changes: changes, span: span)
        }
        if let c = changes { metrics.pages(c.pages, disk: pageStoreFigures) }
    }

    /// Counts a record's diagnostics by code.
    func count(_ diagnostics: [(code: String, contentType: String)]) {
        var byCode: [String: Int] = [:]
        for d in diagnostics { byCode[d.code, default: 0] += 1 }
        for (code, n) in byCode { metrics.diagnostic(code: code, count: n) }
    }

    /// Uses the config a reload put in the slot, from this batch on (attribute carrying follows it too).
    func takeUpReloadedConfig() {
        guard let newer = compilers.newer(than: compiler.generation) else { return }
        compiler = newer
        changes?.use(newer.compiler)
        logger.info("compiling with the reloaded config", metadata: ["config": .string(newer.configHash)])
    }

    /// Counts a consumed message and marks its offset in progress.
    func begin(_ message: KafkaMessage) {
        counts.consumed += 1
        metrics.consumed.increment()
        tracker.begin(topic: message.topic, partition: message.partition, offset: message.offset)
    }

    /// Accounts for a message once all its outputs are acknowledged (or it was skipped).
    func settled(_ message: KafkaMessage, _ settlement: DeliveryEngine.Settlement) {
        counts.settled.add(settlement)
        metrics.settled(settlement)
        tracker.complete(topic: message.topic, partition: message.partition, offset: message.offset)
        lastSettled = .now()
        if let t = message.timestamp { lastSettledTimestamp[TopicPartition(message.topic, message.partition)] = t }
    }

    /// The shared outcome, timed; a pass-through run (benchmark baseline) publishes the input unchanged.
    static func compile(
        _ message: KafkaMessage, compiler: LayoutCompiler, settings: ServeSettings, metrics: WorkerMetrics
    ) -> MessageOutcome {
        if settings.passThrough, let value = message.value, value.count <= settings.limits.maxMessageBytes {
            return .record(value, diagnostics: [], outline: nil)
        }
        #if DEBUG
        // The crash-loop breaker's fault hook (debug builds only): die while compiling a message with this key.
        if let key = settings.debugCrashKey, message.key == Array(key.utf8) {
            fatalError("debug fault hook: crashing on key \(key)")
        }
        #endif
        let start = DispatchTime.now().uptimeNanoseconds
        defer { metrics.compileLatency.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start)) }
        return .of(message, compiler: compiler, limits: settings.limits)
    }

    // MARK: Backpressure, commits, rebalances

    /// Stops fetching while the in-flight messages or bytes are at their limits, by not polling: librdkafka keeps
    /// what it prefetched (bounded by `queued.max.messages.kbytes`, 8 MiB by default), so nothing is fetched twice. While the output
    /// is blocked the partitions are paused instead, since that wait can outlast `max.poll.interval.ms` and the
    /// consumer must keep polling to stay in the group.
    func applyBackpressure() {
        let messages = delivery.inFlightMessages, bytes = delivery.inFlightBytes
        let blocked = delivery.blocked != nil
        if blocked != paused {
            if blocked { consumer.pause(Array(assigned)) } else { consumer.resume(Array(assigned)) }
            paused = blocked
        }
        // Fetching stops at either limit and starts again below three quarters of both, so batches stay large.
        let limits = settings.limits
        let atLimit = limits.isFull(messages: messages, bytes: bytes)
        let belowResume = messages <= limits.maxInFlight / 4 * 3 && bytes <= limits.maxInFlightBytes / 4 * 3
        if full ? belowResume : atLimit {
            full.toggle()
            logger.debug(
                full ? "paused fetching" : "resumed fetching",
                metadata: [
                    "in-flight": .stringConvertible(messages), "in-flight-bytes": .stringConvertible(bytes),
                ])
        }
        if full || paused { delivery.service(timeoutMs: paused ? 20 : 2) }
    }

    /// Commits every partition whose done offset the coordinator has not confirmed (and whose retry backoff is
    /// over). Asynchronously the answer arrives during a later poll (`commitAnswered`); synchronously (on revoke and
    /// at shutdown) this waits for it.
    func commit(synchronous: Bool) {
        lastCommit = DispatchTime.now()
        let offsets = tracker.committable(all: synchronous)
        guard !offsets.isEmpty else { return }
        let list = offsets.map { TopicPartition($0.topic, $0.partition, offset: $0.offset) }
        metrics.commitSent()
        if synchronous {
            commitAnswered(consumer.commitNow(list))
            return
        }
        tracker.requested(offsets)
        do {
            try consumer.commit(list)
        } catch {
            commitAnswered(list.map { CommitResult(partition: $0, error: error) })
        }
    }

    /// The coordinator's answer to a commit: confirmed offsets count as committed; failed ones are sent again after
    /// a backoff (or, for a partition revoked meanwhile, remembered for its return).
    func commitAnswered(_ results: [CommitResult]) {
        var failures: [String] = []
        var wait: UInt64 = 0
        for r in results {
            let p = r.partition
            if let error = r.error {
                failures.append("\(p): \(error.name)")
                wait = max(wait, tracker.failed(topic: p.topic, partition: p.partition, offset: p.offset))
            } else {
                tracker.confirmed(topic: p.topic, partition: p.partition, offset: p.offset)
            }
        }
        guard !failures.isEmpty else { return }
        metrics.commitFailed()
        logger.warning(
            "commit failed; sending it again",
            metadata: [
                "partitions": .string(failures.joined(separator: ", ")),
                "retry-in-ms": .stringConvertible(wait / 1_000_000),
            ])
    }

    /// Partitions coming back whose done offsets no confirmed commit covers resume there, not at the group's
    /// committed offset (which would read those messages again), unless the group has committed further since.
    func resumeOffsets(_ partitions: [TopicPartition]) -> [TopicPartition] {
        var moved: [TopicPartition] = []
        for p in partitions {
            guard let offset = tracker.resumeOffset(topic: p.topic, partition: p.partition) else { continue }
            let committed =
                (try? consumer.committed([TopicPartition(p.topic, p.partition)], timeoutMs: 5_000))?
                .first?.offset ?? TopicPartition.invalid
            if committed >= offset { continue }
            tracker.resumed(topic: p.topic, partition: p.partition, at: offset)
            moved.append(TopicPartition(p.topic, p.partition, offset: offset))
        }
        if !moved.isEmpty {
            logger.info(
                "resuming partitions where this worker's unconfirmed commit left them",
                metadata: ["partitions": .string(moved.map(\.description).joined(separator: ","))])
        }
        return moved
    }

    /// Per assigned partition: messages behind the high watermark from the confirmed commit (what a restart would
    /// read again), the age of the last settled message while messages wait behind it, and how far and for how
    /// long the confirmed commit trails what is done.
    func updateLag() {
        let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
        for tp in assigned {
            let uncommitted = tracker.uncommitted(topic: tp.topic, partition: tp.partition)
            metrics.uncommitted(
                topic: tp.topic, partition: tp.partition, messages: uncommitted.messages, seconds: uncommitted.seconds)
            guard let (_, high) = consumer.cachedWatermarks(topic: tp.topic, partition: tp.partition), high >= 0 else {
                continue
            }
            let from =
                tracker.committedOffset(topic: tp.topic, partition: tp.partition)
                ?? tracker.nextOffset(topic: tp.topic, partition: tp.partition).map { $0 - uncommitted.messages }
                ?? high
            let behind = max(0, high - from)
            var seconds = 0.0
            if behind > 0, let last = lastSettledTimestamp[tp], last > 0, nowMs > last {
                seconds = Double(nowMs - last) / 1000
            }
            metrics.lag(topic: tp.topic, partition: tp.partition, messages: behind, seconds: seconds)
        }
    }

    /// Publishes readiness as a metric and, while no broker can be reached, says so every 30 s with the reason.
    func reportReadiness() {
        metrics.ready(status.readiness.passes)
        guard let reason = status.unreachable else {
            lastUnreachableWarning = nil
            return
        }
        if let last = lastUnreachableWarning,
            DispatchTime.now().uptimeNanoseconds - last.uptimeNanoseconds < 30_000_000_000
        {
            return
        }
        lastUnreachableWarning = .now()
        logger.warning(
            "cannot reach the brokers",
            metadata: [
                "brokers": .string(settings.kafka.bootstrapServers), "reason": .string(reason),
            ])
    }

    /// Waits (up to the shutdown bound) for every in-flight record, handling reports and any dead letters they cause.
    func drain(deadline: DispatchTime) {
        delivery.drain(until: deadline)
    }

    func rebalance(_ event: RebalanceEvent) {
        switch event {
        case .assigned(let partitions):
            if firstAssigned == nil { firstAssigned = .now() }
            status.setJoined(true)
            rebuildState(partitions)
            for p in partitions { assigned.insert(TopicPartition(p.topic, p.partition)) }
            if paused { consumer.pause(partitions) }
            logger.info(
                "partitions assigned",
                metadata: ["partitions": .string(partitions.map(\.description).joined(separator: ","))])
        case .revoked(let partitions):
            // Finish what is in flight for these partitions (bounded), commit it, and forget them.
            drain(deadline: .now() + .milliseconds(settings.shutdownTimeoutMs / 2))
            commit(synchronous: true)
            flushPages()
            for p in partitions {
                let key = TopicPartition(p.topic, p.partition)
                assigned.remove(key)
                revokedDuringPoll.insert(key)
                changes?.pages.removePartition(topic: p.topic, partition: p.partition)
                lastSettledTimestamp[key] = nil
                metrics.uncommitted(topic: p.topic, partition: p.partition, messages: 0, seconds: 0)
                if let next = tracker.nextOffset(topic: p.topic, partition: p.partition),
                    next != tracker.committedOffset(topic: p.topic, partition: p.partition)
                {
                    logger.warning(
                        "revoked before the commit was confirmed; resuming at \(next) if the partition comes back",
                        metadata: ["partition": .string(key.description)])
                }
                let abandoned = tracker.remove(topic: p.topic, partition: p.partition)
                if abandoned > 0 {
                    logger.warning(
                        "abandoned in-flight messages of a revoked partition (they will be redelivered)",
                        metadata: ["partition": .string(key.description), "count": .stringConvertible(abandoned)])
                }
            }
            logger.info(
                "partitions revoked",
                metadata: ["partitions": .string(partitions.map(\.description).joined(separator: ","))])
        }
        status.setAssigned(assigned.count)
        metrics.rebalanced(
            assigned: { if case .assigned = event { true } else { false } }(), partitions: assigned.count)
        metrics.ready(status.readiness.passes)
        breaker?.retain(partitions: assigned)
    }

    /// Brings the pages of newly assigned partitions up to date before any of their messages is processed.
    func rebuildState(_ partitions: [TopicPartition]) {
        guard let loader = stateLoader, changes != nil, !partitions.isEmpty else { return }
        status.setRebuilding(true)
        defer { status.setRebuilding(false) }
        do {
            try openPageStore(loader)
            var loaded: StateLoader.Loaded
            do {
                loaded = try loader.load(partitions, into: &changes!.pages)
            } catch  where error.name == PageStoreError.name && changes!.pages.disk != nil {
                // The disk store cannot take the pages: go on from memory, as without one.
                pageStoreOff("cannot write the page store (\(error.message))")
                loaded = try loader.load(partitions, into: &changes!.pages)
            }
            metrics.stateRebuilt(seconds: loaded.seconds)
            metrics.stateRead(messages: loaded.messages)
            for p in partitions { metrics.checkpointLag(p, messages: loaded.messagesByPartition[p] ?? 0) }
            logger.info(
                "latest layouts rebuilt",
                metadata: [
                    "partitions": .string(partitions.map(\.description).joined(separator: ",")),
                    "messages-read": .stringConvertible(loaded.messages),
                    "layouts": .stringConvertible(loaded.layouts),
                    "tombstones": .stringConvertible(loaded.tombstones),
                    "unreadable": .stringConvertible(loaded.unreadable),
                    "rebuilt-partitions": .stringConvertible(loaded.rebuiltPartitions),
                    "page-store": .string(changes!.pages.disk?.path ?? "off"),
                    "seconds": .string(String(format: "%.3f", loaded.seconds)),
                ])
        } catch {
            // Without its state the worker would publish change sets against the wrong base: stop instead.
            logger.error("cannot rebuild latest layouts; stopping", metadata: ["error": .string(error.description)])
            fatal = error
        }
    }

    /// Opens the page store in `--state-dir` on the first assignment (the cluster's id is part of what it is made
    /// for); a directory that cannot be used leaves the worker working from memory, and says so.
    func openPageStore(_ loader: StateLoader) throws(KafkaError) {
        guard !pageStoreTried, let dir = settings.changes?.stateDirectory else { return }
        pageStoreTried = true
        // The group's consumer is connected and knows the cluster (a new client would first wait for metadata).
        guard let cluster = consumer.clusterID(timeoutMs: 10_000) else {
            throw KafkaError(
                code: -185, name: "_TIMED_OUT", message: "no broker told the cluster id within 10 s", isRetriable: true)
        }
        let identity = loader.storeIdentity(cluster: cluster)
        do {
            let (store, opening) = try PageStore.open(directory: dir, identity: identity)
            changes!.pages.use(store)
            switch opening {
            case .created: logger.info("page store created", metadata: ["state-dir": .string(dir)])
            case .reopened: logger.info("page store reopened", metadata: ["state-dir": .string(dir)])
            case .rebuilt(let reason):
                logger.warning(
                    "page store rebuilt from the topic",
                    metadata: ["state-dir": .string(dir), "reason": .string(reason)])
            }
        } catch {
            pageStoreOff("cannot open the page store: \(error.description)")
        }
    }

    /// Goes on without the disk store: pages past the memory budget are forgotten, as the status says.
    func pageStoreOff(_ reason: String) {
        changes?.pages.use(nil)
        if let c = changes { metrics.pages(c.pages, disk: nil) }
        status.setPageStoreProblem(reason + "; pages past --state-max-bytes are forgotten")
        logger.error("page store off; working from memory", metadata: ["reason": .string(reason)])
    }

    /// Writes what the latest-layout topic acknowledged to the page store. The first write that fails (a full or
    /// read-only disk) ends writing until a restart: from then on the pages changed stay in memory (never evicted,
    /// so no page goes back in time) and the status, the log and `layout_worker_page_store_up` say so.
    func flushPages() {
        guard changes?.pages.disk != nil, changes!.pages.writeFailure == nil else { return }
        changes!.pages.flush()
        guard let failure = changes!.pages.writeFailure else { return }
        metrics.pages(changes!.pages, disk: pageStoreFigures)
        status.setPageStoreProblem(
            "page store writes fail (\(failure)); pages changed from now on stay in memory until a restart")
        logger.error(
            "page store writes fail; pages changed from now on stay in memory until a restart",
            metadata: ["error": .string(failure)])
    }

    /// The page store's size on disk and pages, read at most every 10 s (a directory listing).
    var pageStoreFigures: (bytes: Int, pages: Int)? {
        guard let disk = changes?.pages.disk else { return nil }
        if let (at, figures) = lastStoreFigures, DispatchTime.now().uptimeNanoseconds - at < 10_000_000_000 {
            return figures
        }
        let figures = (disk.diskBytes, disk.estimatedPages)
        lastStoreFigures = (DispatchTime.now().uptimeNanoseconds, figures)
        return figures
    }

    func shutdown() {
        logger.info("draining", metadata: ["in-flight": .stringConvertible(delivery.inFlightMessages)])
        // What the latest-layout store holds before the partitions are revoked (bounded by --state-max-bytes).
        let store = changes.map { (bytes: $0.pages.cache.bytes, pages: $0.pages.count) }
        let deadline = DispatchTime.now() + .milliseconds(settings.shutdownTimeoutMs * 3 / 4)
        drain(deadline: deadline)
        commit(synchronous: true)
        flushPages()
        changes?.pages.disk?.close()
        delivery.abandonUnsettled("the worker stopped before the outputs were acknowledged")
        consumer.close()
        stateLoader?.close()
        metrics.inFlight(messages: delivery.inFlightMessages, bytes: delivery.inFlightBytes)
        metrics.ready(false)
        var metadata: Logger.Metadata = [
            "consumed": .stringConvertible(counts.consumed), "published": .stringConvertible(counts.published),
            "dead-lettered": .stringConvertible(counts.deadLettered), "skipped": .stringConvertible(counts.skipped),
            "in-flight": .stringConvertible(counts.inFlight),
            // From the first assignment to the last message accounted for.
            "elapsed-ms": .stringConvertible(
                firstAssigned.map { first in
                    ((lastSettled ?? first).uptimeNanoseconds &- first.uptimeNanoseconds) / 1_000_000
                } ?? 0),
        ]
        if let store {
            metadata["store-bytes"] = .stringConvertible(store.bytes)
            metadata["store-pages"] = .stringConvertible(store.pages)
        }
        logger.info("stopped", metadata: metadata)
    }
}
