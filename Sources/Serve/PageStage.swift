import Delivery
import Dispatch
import Kafka
import LayoutCompiler
import LayoutKit
import LayoutRecord
import Logging
import Ops
import PageState
import PageStore
import StoreResume

/// The worker's pages with change sets on: what each message does to its page (`ChangeStage`, over the memory
/// cache and the page store), the pages of assigned partitions brought up to date (`PageLoader`), the page store
/// opened on the first assignment and written as the latest-layout topic acknowledges. Owned by the loop's thread.
final class PageStage {
    let settings: ChangeSettings
    private var changes: ChangeStage
    /// The previous layout and position per page: in memory, and on disk once the page store is open.
    private var pages: WorkerPages
    private let loader: PageLoader
    private let metrics: WorkerMetrics
    private let status: WorkerStatus
    private let logger: Logger
    /// Whether opening the page store was tried (on the first assignment).
    private var storeTried = false
    /// The page store's figures as last read, and when (a directory listing: at most every 10 s).
    private var lastStoreFigures: (at: ContinuousClock.Instant, figures: (bytes: Int, pages: Int))?

    init(
        settings: ChangeSettings, kafka: KafkaConfiguration, compiler: LayoutCompiler, metrics: WorkerMetrics,
        status: WorkerStatus, logger: Logger
    ) {
        self.settings = settings
        changes = ChangeStage(settings: settings, compiler: compiler)
        pages = WorkerPages(maxBytes: settings.storeMaxBytes)
        loader = PageLoader(settings: settings, kafka: kafka, logger: logger)
        self.metrics = metrics
        self.status = status
        self.logger = logger
    }

    /// Carries attributes as `compiler`'s config says from now on (after a config reload).
    func use(_ compiler: LayoutCompiler) { changes.use(compiler) }

    /// Sets what each message of the batch does to its page (records and tombstones; nothing for the others).
    /// `doneBefore` tells, per input partition, the offset before which every input is done (nil before the
    /// partition's first message: then the batch's first offset on it is where its consumer started).
    func step(_ items: inout [BatchItem], doneBefore: (Partition) -> Int64?) {
        var indices: [Int] = []
        var inputs: [(message: KafkaMessage, record: RecordOutline?)] = []
        var done: [Partition: Int64] = [:]
        for (i, item) in items.enumerated() {
            let partition = item.message.position.partition
            if done[partition] == nil { done[partition] = doneBefore(partition) ?? item.message.offset }
            guard let input = item.pageInput else { continue }
            indices.append(i)
            inputs.append(input)
        }
        for (i, outcome) in zip(indices, changes.outcomes(inputs, on: &pages, committed: done)) {
            items[i].page = outcome
        }
        if changes.uncarried > 0 { metrics.stepsUncarried(changes.uncarried) }
        for key in changes.unreadableOnDisk {
            var metadata: Logger.Metadata = [
                "page": .string(key.page), "page-store": .string(pages.disk?.path ?? "off"),
            ]
            if let input = key.scope.input {
                metadata["topic"] = .string(input.topic)
                metadata["partition"] = .stringConvertible(input.number)
            }
            logger.warning("unreadable latest layout skipped", metadata: metadata)
        }
        metrics.pages(pages, disk: storeFigures)
    }

    /// A page's latest layout (nil: its tombstone) was acknowledged at `report`'s offset of the latest-layout topic:
    /// the page store takes it, and its input partition's checkpoint, at the next `flush`.
    /// A change set acknowledged is on its topic: its step is no longer carried.
    func acknowledged(_ message: KafkaMessage, _ part: DeliveryEngine.Part, _ report: DeliveryReport) {
        if part.topic == settings.changesTopic, let key = part.key,
            let step = part.headers.integer(Wire.Header.sourceOffset)
        {
            pages.changeSetAcknowledged(PageKey(String(decoding: key, as: UTF8.self), of: message), step: step)
            return
        }
        guard part.topic == settings.latestLayoutTopic, let key = part.key else { return }
        pages.acknowledged(
            PageKey(String(decoding: key, as: UTF8.self), of: message), record: part.value, position: message.offset,
            steps: CarriedStep.read(from: part.headers), stateOffset: report.offset)
    }

    /// Brings the pages of newly assigned partitions up to date before any of their messages is processed; opens
    /// the page store first on the first assignment (`clusterID` names what it is made for). A retriable cluster
    /// error (no broker answering in time, a leader moving) is waited out: tried again after 250 ms, doubling up to
    /// 5 s, for up to `retryFor` (4 minutes: the wait is inside a poll, and librdkafka's `max.poll.interval.ms`
    /// is 5 by default). Throws past that, for any other error, or when asked to stop: without the pages change
    /// sets would be made against the wrong base.
    func rebuild(
        _ partitions: [Partition], clusterID: () throws(KafkaError) -> String, retryFor: Duration = .seconds(240)
    ) throws(KafkaError) {
        guard !partitions.isEmpty else { return }
        status.setRebuilding(true)
        defer { status.setRebuilding(false) }
        let giveUp = ContinuousClock.now + retryFor
        var backoff = Backoff(first: .milliseconds(250), most: .seconds(5))
        while true {
            do throws(PageLoadError) {
                return try load(partitions, clusterID: clusterID)
            } catch let caught {
                let error: KafkaError
                switch caught {
                case .kafka(let kafka): error = kafka
                case .store(let store):
                    // The disk store cannot take the pages: go on from memory, as without one, and read them again
                    // (a reading into memory touches no store).
                    storeOff("cannot write the page store (\(store.message))")
                    continue
                }
                guard error.isRetriable, !error.isFatal, !status.stopRequested,
                    ContinuousClock.now + backoff.next < giveUp
                else { throw error }
                logger.warning(
                    "cannot read latest layouts yet; trying again",
                    metadata: [
                        "error": .string(error.description), "pause-ms": "\(Int(backoff.next / .milliseconds(1)))",
                    ])
                backoff.pause(beat: status.beat) { status.stopRequested }
            }
        }
    }

    /// Opens the page store (on the first assignment) and reads the pages of `partitions`, once.
    private func load(_ partitions: [Partition], clusterID: () throws(KafkaError) -> String)
        throws(PageLoadError)
    {
        do { try openStore(clusterID) } catch { throw .kafka(error) }
        let loaded = try loader.load(partitions, into: &pages)
        metrics.stateRebuilt(seconds: loaded.seconds)
        metrics.stateRead(messages: loaded.messages)
        for p in partitions { metrics.checkpointLag(p, messages: loaded.messagesByPartition[p] ?? 0) }
        logger.info(
            "latest layouts rebuilt",
            metadata: [
                "partitions": .string(partitions.map(\.description).joined(separator: ",")),
                "messages-read": .stringConvertible(loaded.messages), "layouts": .stringConvertible(loaded.layouts),
                "tombstones": .stringConvertible(loaded.tombstones),
                "unreadable": .stringConvertible(loaded.unreadable),
                "rebuilt-partitions": .stringConvertible(loaded.rebuiltPartitions),
                "page-store": .string(pages.disk?.path ?? "off"),
                "seconds": .string(String(format: "%.3f", loaded.seconds)),
            ])
    }

    /// Forgets a revoked partition's pages in memory (the page store keeps them, and the checkpoint to resume from).
    func forget(_ partition: Partition) {
        pages.removePartition(partition)
    }

    /// Writes what the latest-layout topic acknowledged to the page store. The first write that fails (a full or
    /// read-only disk) ends writing until a restart: from then on the pages changed stay in memory (never evicted,
    /// so no page goes back in time) and the status, the log and `layout_worker_page_store_up` say so.
    func flush() {
        guard pages.disk != nil, pages.writeFailure == nil else { return }
        pages.flush()
        guard let failure = pages.writeFailure else { return }
        metrics.pages(pages, disk: storeFigures)
        status.setPageStoreProblem(PageStoreOpening.writesFail(failure, logger: logger))
    }

    /// What memory holds: the cache's bytes and pages.
    var held: (bytes: Int, pages: Int) { (pages.cache.bytes, pages.count) }

    /// Writes what is acknowledged and closes the page store and the latest-layout reader.
    func close() {
        flush()
        pages.disk?.close()
        loader.close()
    }

    /// Opens the page store in `--page-store` on the first assignment (the cluster's id is part of what it is made
    /// for); a directory that cannot be used leaves the worker working from memory, and says so.
    private func openStore(_ clusterID: () throws(KafkaError) -> String) throws(KafkaError) {
        guard !storeTried, let dir = settings.pageStoreDirectory else { return }
        // The group's consumer is connected and knows the cluster (a new client would first wait for metadata).
        let cluster = try clusterID()
        storeTried = true
        let identity = PageStoreOpening.identity(cluster: cluster, latestTopic: settings.latestLayoutTopic)
        switch PageStoreOpening.open(directory: dir, identity: identity, logger: logger) {
        case .success(let store): pages.use(store)
        case .failure(let error): storeOff("cannot open the page store: \(error.description)")
        }
    }

    /// Goes on without the disk store: pages past the memory budget are forgotten, as the status says.
    private func storeOff(_ reason: String) {
        pages.use(nil)
        metrics.pages(pages, disk: nil)
        status.setPageStoreProblem(PageStoreOpening.off(reason, memoryLimit: "--page-cache-bytes", logger: logger))
    }

    /// The page store's size on disk and pages, read at most every 10 s (a directory listing).
    private var storeFigures: (bytes: Int, pages: Int)? {
        guard let disk = pages.disk else { return nil }
        if let last = lastStoreFigures, ContinuousClock.now < last.at + .seconds(10) { return last.figures }
        let figures = (disk.diskBytes, disk.estimatedPages)
        lastStoreFigures = (.now, figures)
        return figures
    }
}
