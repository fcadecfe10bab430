import Delivery
public import Kafka
import LayoutKit
import LayoutRecord
public import Logging
import PageStore
public import StoreResume

/// Brings the pages of newly assigned input partitions up to date from the "latest layout" topic: with a page store
/// on disk, from each input partition's checkpoint to the end (only what it missed; the whole partition when the
/// checkpoint cannot be trusted); without one, the whole partition into memory.
public final class PageLoader {
    let settings: ChangeSettings
    let kafka: KafkaConfiguration
    let logger: Logger
    private var reader: TopicRangeReader?

    public init(settings: ChangeSettings, kafka: KafkaConfiguration, logger: Logger) {
        self.settings = settings
        self.kafka = kafka
        self.logger = logger
    }

    /// What a load read.
    public struct Loaded: Sendable {
        /// Messages of the latest-layout topic read per input partition: how far its checkpoint trailed the topic.
        public var messagesByPartition: [Partition: Int] = [:]
        /// All of them (the restart cost: what the checkpoints did not cover).
        public var messages: Int { messagesByPartition.values.reduce(0, +) }
        public var layouts = 0
        public var tombstones = 0
        public var unreadable = 0
        /// Input partitions whose checkpoint could not be used, so their pages were read from the beginning.
        public var rebuiltPartitions = 0
        public var seconds = 0.0
    }

    private func openReader() throws(KafkaError) -> TopicRangeReader {
        if let reader { return reader }
        let made = try TopicRangeReader(configuration: kafka, topic: settings.latestLayoutTopic)
        reader = made
        return made
    }

    /// Loads the pages of `partitions` (input partitions; state partition numbers match) into `pages`. With a page
    /// store, a bulk load (`PageStore.beginBulkLoad`) for partitions read from the beginning: on disk when this
    /// returns.
    public func load(_ partitions: [Partition], into pages: inout WorkerPages, timeoutMs: Int = 600_000)
        throws(PageLoadError) -> Loaded
    {
        guard let disk = pages.disk else { return try read(partitions, into: &pages, timeoutMs: timeoutMs) }
        disk.beginBulkLoad()
        let loaded: Loaded
        do {
            loaded = try read(partitions, into: &pages, timeoutMs: timeoutMs)
        } catch {
            try? disk.endBulkLoad()
            throw error
        }
        try PageLoadError.storeCall { () throws(PageStoreError) in try disk.endBulkLoad() }
        return loaded
    }

    private func read(_ partitions: [Partition], into pages: inout WorkerPages, timeoutMs: Int)
        throws(PageLoadError) -> Loaded
    {
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(timeoutMs)
        var loaded = Loaded()
        let reader = try PageLoadError.clusterCall(openReader)
        var starts: [Partition: StoreResume.Start] = [:]
        if let disk = pages.disk {
            let plan = try StoreResume(store: disk, logger: logger).plan(
                pages: reader,
                partitions.map { .init(checkpoint: $0, read: $0.number, scope: PageStore.Scope($0)) })
            starts = plan.starts
            loaded.rebuiltPartitions = plan.rebuilt
        }
        let fromBeginning = partitions.filter { starts[$0] == nil || starts[$0] == .beginning }
        let watermarks = try self.watermarks(Set(fromBeginning.map(\.number)).sorted(), reader)
        for input in partitions {
            let (from, low, end): (Int64, Int64, Int64)
            if case .checkpoint(let checkpoint, let extent)? = starts[input] {
                (from, low, end) = (checkpoint, extent.low, extent.end)
            } else {
                let marks = watermarks[input.number] ?? (0, 0)
                (from, low, end) = (marks.low, marks.low, marks.high)
            }
            guard end > from else { continue }
            try PageLoadError.clusterCall { () throws(KafkaError) in
                try reader.read([.init(partition: input.number, start: from, stop: .partitionEnd)])
            }
            // A partition read from its beginning is a bulk load: its batches skip the write-ahead log.
            var sink = PageSink(input: input, disk: pages.disk, logged: from != low)
            while !reader.isDone && ContinuousClock.now < deadline {
                guard let result = reader.next(timeoutMs: 100) else { continue }
                switch result {
                case .failure(let e):
                    if e.isFatal { throw .kafka(e) }
                    logger.warning("reading latest layouts", metadata: ["error": .string(e.description)])
                case .success(let m):
                    loaded.messagesByPartition[input, default: 0] += 1
                    try take(m, input: input, into: &pages, sink: &sink, &loaded)
                }
            }
            if !reader.isDone {
                throw .kafka(
                    .timedOut(
                        "reading latest layouts from \(settings.latestLayoutTopic)[\(input.number)] took longer than \(timeoutMs) ms",
                        isRetriable: false))
            }
            try sink.write(checkpoint: reader.position(input.number) ?? end)
        }
        try PageLoadError.clusterCall { () throws(KafkaError) in try reader.read([]) }
        loaded.seconds = (ContinuousClock.now - start) / .seconds(1)
        return loaded
    }

    /// The low and high watermarks of latest-layout partitions read from the beginning.
    private func watermarks(_ partitions: [Int32], _ reader: TopicRangeReader) throws(PageLoadError)
        -> [Int32: (low: Int64, high: Int64)]
    {
        var marks: [Int32: (low: Int64, high: Int64)] = [:]
        for p in partitions {
            do {
                marks[p] = try reader.watermarks(p)
            } catch {
                throw .kafka(
                    error.about(
                        "latest-layout topic \(settings.latestLayoutTopic) partition \(p) (create it compacted with as many "
                            + "partitions as the input)"))
            }
        }
        return marks
    }

    /// One latest layout read back: to disk (batched) when there is a store, else into memory.
    private func take(
        _ m: KafkaMessage, input: Partition, into pages: inout WorkerPages, sink: inout PageSink,
        _ loaded: inout Loaded
    ) throws(PageLoadError) {
        guard let source = m.header(Wire.Header.sourceTopic), source.elementsEqual(input.topic.utf8),
            let keyBytes = m.key
        else { return }
        let page = String(decoding: keyBytes, as: UTF8.self)
        let position = OutputHeaders.position(of: m)
        let steps = CarriedStep.read(from: m.headers)
        if m.value == nil { loaded.tombstones += 1 } else { loaded.layouts += 1 }
        if sink.disk != nil {
            try sink.add(page, StoredPage(position: position, record: m.value, steps: steps), through: m.offset)
            return
        }
        let key = PageKey(page, in: PageStore.Scope(input))
        guard let value = m.value else {
            pages.loaded(WorkerPages.Page(layout: nil, position: position, steps: steps), for: key)
            return
        }
        do {
            let layout = try RecordOutline(bytes: value)
            pages.loaded(WorkerPages.Page(layout: layout, position: position, steps: steps), for: key)
        } catch {
            loaded.unreadable += 1
            logger.warning(
                "unreadable latest layout skipped",
                metadata: [
                    "partition": .stringConvertible(m.partition), "offset": .stringConvertible(m.offset),
                    "error": .string(error.description),
                ])
        }
    }

    /// Leaves the brokers.
    public func close() {
        reader?.close()
        reader = nil
    }
}

/// Latest layouts read back, written to the page store in batches (of a bulk load: unlogged), each with the
/// checkpoint it reaches.
struct PageSink {
    let input: Partition
    let disk: PageStore?
    let logged: Bool
    private var batch = PageStore.Batch()
    private var bytes = 0

    init(input: Partition, disk: PageStore?, logged: Bool) {
        self.input = input
        self.disk = disk
        self.logged = logged
    }

    mutating func add(_ page: String, _ stored: StoredPage, through offset: Int64) throws(PageLoadError) {
        batch.pages.append((PageKey(page, in: PageStore.Scope(input)), stored))
        bytes += stored.bytes + page.utf8.count
        if PageStore.Batch.isFull(pages: batch.pages.count, bytes: bytes) { try write(checkpoint: offset + 1) }
    }

    /// Writes what is batched with `checkpoint` (the next offset to read) as the partition's checkpoint.
    mutating func write(checkpoint: Int64) throws(PageLoadError) {
        guard let disk else { return }
        batch.checkpoints = [(input.topic, input.number, checkpoint)]
        try PageLoadError.storeCall { () throws(PageStoreError) in try disk.write(batch, logged: logged) }
        batch = PageStore.Batch()
        bytes = 0
    }
}
