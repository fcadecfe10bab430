import CAllocator
import Foundation
public import Kafka
import LayoutKit
public import Logging
import Ops
import PageStore
import StoreResume

/// Reads the latest-layout topic, then the change-set topic, both by assignment (no consumer group: any number of
/// gateways can run side by side), into the page book; sends heartbeats and the records that waited too long for
/// their change set. With a page store both are read from its checkpoints (only what the gateway missed); without
/// one (or a new one), the latest layouts from the beginning and the change sets from their end at start. Runs on a thread of
/// its own until `stop` says so.
public struct GatewayFeed: Sendable {
    let settings: GatewaySettings
    let book: PageBook
    let status: GatewayStatus
    let metrics: GatewayMetrics
    let logger: Logger

    public init(
        settings: GatewaySettings, book: PageBook, status: GatewayStatus, metrics: GatewayMetrics, logger: Logger
    ) {
        self.settings = settings
        self.book = book
        self.status = status
        self.metrics = metrics
        self.logger = logger
    }

    /// Reads until `stop()`; a topic that does not exist yet is waited for, and a retriable cluster error (no broker
    /// answering in time, a leader moving) is waited out: the page store is closed, `/readyz` says why, and after a
    /// pause (1 s, doubling up to 30 s) the topics are read again from its checkpoints. Pages already held are
    /// answered meanwhile. Any other error is thrown.
    public func run(stop: @escaping () -> Bool) throws(KafkaError) {
        var backoff = Backoff(first: .seconds(1), most: .seconds(30))
        while !stop() {
            do throws(KafkaError) {
                try follow(stop: stop)
                return
            } catch {
                guard error.isRetriable && !error.isFatal else { throw error }
                book.closeStore()
                status.setProblem(error.description)
                logger.warning(
                    "kafka: reading the topics again after a pause",
                    metadata: [
                        "error": .string(error.description), "pause-ms": "\(Int(backoff.next / .milliseconds(1)))",
                    ])
                backoff.pause(beat: status.beat, stop: stop)
            }
        }
    }

    /// One reading of the topics, from the page store's checkpoints, until `stop()` or an error.
    private func follow(stop: @escaping () -> Bool) throws(KafkaError) {
        status.setStartStep("waiting for the topics")
        guard let latestPartitions = waitForTopic(settings.latestLayoutTopic, stop: stop),
            let changePartitions = waitForTopic(settings.changesTopic, stop: stop)
        else { return }
        let started = ContinuousClock.now
        let latest = try TopicRangeReader(configuration: settings.kafka, topic: settings.latestLayoutTopic)
        defer { latest.close() }
        let changes = try TopicRangeReader(configuration: settings.kafka, topic: settings.changesTopic)
        defer { changes.close() }
        var starts = try startOffsets(latest, latestPartitions, changes, changePartitions)
        // Change sets without a checkpoint start at the end as it is now, found by a fetch before the latest layouts
        // are read: one published while they are read is not skipped (an `end` resolved later would skip it).
        let fromEnd = changePartitions.filter { starts.changes[$0] == nil }
        if !fromEnd.isEmpty {
            for (p, end) in try changes.fetchedEnds(fromEnd) { starts.changes[p] = end }
        }
        var read = 0
        // Without a checkpoint for any latest-layout partition the store holds no page (pages are written with
        // their checkpoints): what it will hold until the catch-up ends is what this reading wrote.
        book.catchUp(emptyStore: starts.latest.isEmpty)
        status.setStartStep("reading the latest layouts")
        try latest.read(
            latestPartitions.map { .init(partition: $0, start: starts.latest[$0] ?? Offset.beginning) })
        var changesStarted = false
        var lagFigures = Periodic(every: .seconds(1))
        var flushes = Periodic(every: .milliseconds(100))
        // Freed memory goes back at most every 250 ms once ready (`giveBackFreedMemory`), every 10 s while catching
        // up: there the next pages reuse the holes, and trimming every 250 ms cost a fifth more CPU.
        var trims = (ready: Periodic(every: .milliseconds(250)), catchingUp: Periodic(every: .seconds(10)))
        var trimmedAt = (evictions: 0, streams: 0)
        var notReadyYet = Periodic(every: .seconds(10))
        while !stop() {
            status.beat()
            if !changesStarted && notReadyYet.isDue() { logNotReadyYet(latest, latestPartitions, read: read) }
            if let result = latest.next(timeoutMs: changesStarted ? 0 : 50) {
                read += 1
                take(result, latest: true)
            }
            if !changesStarted && latest.hasCaughtUp {
                try changes.read(
                    changePartitions.map { .init(partition: $0, start: starts.changes[$0] ?? Offset.end) })
                changesStarted = true
                flush(latest, latestPartitions, changes, changePartitions)
                if let failure = book.caughtUp() {
                    status.setPageStoreProblem(PageStoreOpening.writesFail(failure, logger: logger))
                }
                let seconds = (ContinuousClock.now - started) / .seconds(1)
                status.setCaughtUp(seconds: seconds, messages: read)
                logger.info(
                    "gateway caught up",
                    metadata: [
                        "pages-in-memory": .stringConvertible(book.figures.pages),
                        "latest-layouts-read": .stringConvertible(read),
                        "seconds": .string(String(format: "%.3f", seconds)),
                        "page-store": .string(book.disk?.path ?? "off"),
                    ])
            }
            if changesStarted, let result = changes.next(timeoutMs: 50) { take(result, latest: false) }
            book.flushPending()
            if book.disk != nil, book.flushIsDue || flushes.hasElapsed() {
                flush(latest, latestPartitions, changesStarted ? changes : nil, changePartitions)
                flushes.taken()
            }
            if lagFigures.isDue() { status.setLag(latest: latest.lag, changes: changesStarted ? changes.lag : 0) }
            if changesStarted ? trims.ready.isDue() : trims.catchingUp.isDue() { giveBackFreedMemory(&trimmedAt) }
        }
        flush(latest, latestPartitions, changesStarted ? changes : nil, changePartitions)
        book.closeStore()
    }

    /// Says, every 10 s until the gateway is ready, what it is doing and how far each latest-layout partition is read.
    private func logNotReadyYet(_ latest: TopicRangeReader, _ partitions: [Int32], read: Int) {
        guard let step = status.startStepUnderWay else { return }
        let positions = partitions.map { p in
            "\(p): \(latest.position(p).map(String.init) ?? "none")\(latest.reachedEnd.contains(p) ? " (end)" : "")"
        }
        logger.warning(
            "gateway not ready yet",
            metadata: [
                "step": .string(step.what), "seconds": .string(String(format: "%.1f", step.seconds)),
                "latest-layouts-read": .stringConvertible(read),
                "positions": .string(positions.joined(separator: ", ")),
            ])
    }

    /// Pages the memory cache lets go, and connections that open and close (each leaves the request it parsed, its
    /// decoder and, for a stream, its opening behind), leave holes in the heap that glibc keeps resident (it returns
    /// only the heap's top); after either, every free page is given back, so resident memory follows what is held,
    /// not its peak. At most every 250 ms: GETs of 45 KB pages from disk at 11,000/s free a budget's worth of pages
    /// in a few seconds, and every 10 s let the gateway reach 2.5 times its budget (every 250 ms: 1.5 times, the
    /// same GET/s and p99). (Mapping every record on its own instead cost six times the GET throughput.)
    private func giveBackFreedMemory(_ trimmedAt: inout (evictions: Int, streams: Int)) {
        let now = (evictions: book.figures.evictions, streams: book.streamsOpened)
        guard now != trimmedAt else { return }
        trimmedAt = now
        _ = lw_allocator_trim()
    }

    /// Writes what the book took in since the last flush, with how far each partition was read, to the page store.
    private func flush(
        _ latest: TopicRangeReader, _ latestPartitions: [Int32], _ changes: TopicRangeReader?,
        _ changePartitions: [Int32]
    ) {
        guard book.disk != nil else { return }
        for p in latestPartitions {
            if let at = latest.position(p) { book.reached(settings.latestLayoutTopic, partition: p, offset: at) }
        }
        if let changes {
            for p in changePartitions {
                if let at = changes.position(p) { book.reached(settings.changesTopic, partition: p, offset: at) }
            }
        }
        let failedBefore = book.writeFailure != nil
        if let failure = book.flush(), !failedBefore {
            status.setPageStoreProblem(PageStoreOpening.writesFail(failure, logger: logger))
        }
    }

    /// Opens the page store (when there is a directory) and says where to read each partition from: from the
    /// store's checkpoints when it has them and the topics still hold them, else latest layouts from the beginning
    /// and change sets from the end, with an emptied store.
    private func startOffsets(
        _ latest: TopicRangeReader, _ latestPartitions: [Int32], _ changes: TopicRangeReader,
        _ changePartitions: [Int32]
    ) throws(KafkaError) -> (latest: [Int32: Int64], changes: [Int32: Int64]) {
        guard let dir = settings.pageStoreDirectory else { return ([:], [:]) }
        status.setStartStep("asking the brokers for the cluster id")
        let cluster = try latest.knownClusterID()
        let identity = PageStoreOpening.identity(
            cluster: cluster, latestTopic: settings.latestLayoutTopic, changesTopic: settings.changesTopic)
        status.setStartStep("opening the page store")
        let store: PageStore
        switch PageStoreOpening.open(directory: dir, identity: identity, logger: logger) {
        case .success(let opened): store = opened
        case .failure(let error):
            status.setPageStoreProblem(
                PageStoreOpening.off(
                    "cannot open the page store: \(error.description)", memoryLimit: "--page-cache-bytes",
                    logger: logger)
            )
            return ([:], [:])
        }
        book.attach(store)
        status.setStartStep("checking the page store against the topics")
        do throws(PageLoadError) {
            let plan = try StoreResume(store: store, logger: logger).plan(
                pages: latest,
                latestPartitions.map {
                    .init(checkpoint: Partition(settings.latestLayoutTopic, $0), read: $0, scope: .whole)
                },
                companion: (changes, changePartitions))
            var starts: (latest: [Int32: Int64], changes: [Int32: Int64]) = ([:], plan.companion)
            for (p, start) in plan.starts {
                if case .checkpoint(let offset, _) = start { starts.latest[p.number] = offset }
            }
            return starts
        } catch {
            switch error {
            case .kafka(let error): throw error
            case .store(let error):
                // The store cannot be read or written (a full or read-only disk): go on from memory, as without
                // one, reading both topics as a new store would.
                book.closeStore()
                status.setPageStoreProblem(
                    PageStoreOpening.off(
                        "cannot use the page store: \(error)", memoryLimit: "--page-cache-bytes", logger: logger))
                return ([:], [:])
            }
        }
    }

    private func take(_ result: Result<KafkaMessage, KafkaError>, latest: Bool) {
        switch result {
        case .failure(let error):
            status.setProblem(error.description)
            logger.warning("kafka", metadata: ["error": .string(error.description)])
        case .success(let m):
            status.setProblem(nil)
            guard let keyBytes = m.key, let key = String(validating: keyBytes, as: UTF8.self) else { return }
            let sourceTimeMs = m.integerHeader(Wire.Header.sourceTimestamp)
            if latest {
                let position = m.integerHeader(Wire.Header.sourceOffset)
                book.storeRecord(m.value, for: key, position: position, sourceTimeMs: sourceTimeMs)
            } else if let value = m.value {
                guard let hashes = ChangeSetHashes(value) else {
                    logger.warning(
                        "not a change set; skipped",
                        metadata: [
                            "partition": .stringConvertible(m.partition), "offset": .stringConvertible(m.offset),
                        ])
                    return
                }
                if let sourceTimeMs {
                    metrics.changeSetFreshness.recordNanoseconds(InputAge.nanoseconds(since: sourceTimeMs))
                }
                book.storeChangeSet(
                    value, base: hashes.base, target: hashes.target, for: key, sourceTimeMs: sourceTimeMs)
            }
        }
    }

    /// The topic's partitions once it exists (nil when stopped first).
    private func waitForTopic(_ topic: String, stop: () -> Bool) -> [Int32]? {
        var reported = false
        var pause = Backoff(first: .milliseconds(500), most: .milliseconds(500))
        while !stop() {
            status.beat()
            do {
                if let partitions = try TopicRangeReader.partitions(
                    of: topic, configuration: settings.kafka, timeoutMs: 1_000)
                {
                    return partitions
                }
                if !reported { logger.warning("topic does not exist (yet): waiting", metadata: ["topic": "\(topic)"]) }
                status.setProblem("topic \(topic) does not exist (yet)")
            } catch {
                status.setProblem("\(topic): \(error)")
            }
            reported = true
            pause.pause(beat: status.beat, stop: stop)
        }
        return nil
    }
}
