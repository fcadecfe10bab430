import Delivery
public import Kafka
import LayoutKit
import LayoutRecord
public import Logging
import PageStore

/// Brings the pages of newly assigned input partitions up to date from the "latest layout" topic: with a page store
/// on disk, from each input partition's checkpoint to the end (only what it missed; the whole partition when the
/// checkpoint cannot be trusted); without one, the whole partition into memory.
public final class StateLoader {
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
        let made = try TopicRangeReader(configuration: kafka, topic: settings.stateTopic)
        reader = made
        return made
    }

    /// Loads the pages of `partitions` (input partitions; state partition numbers match) into `pages`. With a page
    /// store, a bulk load (`PageStore.beginBulkLoad`) for partitions read from the beginning: on disk when this
    /// returns.
    public func load(_ partitions: [TopicPartition], into pages: inout WorkerPages, timeoutMs: Int = 600_000)
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
        try store { () throws(PageStoreError) in try disk.endBulkLoad() }
        return loaded
    }

    private func read(_ partitions: [TopicPartition], into pages: inout WorkerPages, timeoutMs: Int)
        throws(PageLoadError) -> Loaded
    {
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(timeoutMs)
        var loaded = Loaded()
        let reader = try cluster(openReader)
        if let disk = pages.disk { try forgetIfReplaced(reader, disk, partitions, &loaded) }
        var checkpoints: [Partition: Int64] = [:]
        for input in partitions {
            checkpoints[input.partitionID] = try store { () throws(PageStoreError) in
                try pages.disk?.checkpoint(topic: input.topic, partition: input.partition)
            }
        }
        // A checkpoint is checked against the partition's end as a fetch finds it; without one the watermark does.
        let checked = Set(partitions.filter { checkpoints[$0.partitionID] != nil }.map(\.partition))
        let (lows, ends) = try cluster { () throws(KafkaError) in
            try bounds(Array(Set(partitions.map(\.partition))).sorted(), fetching: checked, reader)
        }
        for input in partitions {
            let (low, end) = (lows[input.partition] ?? 0, ends[input.partition] ?? 0)
            let from = try startOffset(
                input, checkpoint: checkpoints[input.partitionID], low: low, end: end, pages.disk, &loaded)
            guard end > from else { continue }
            try cluster { () throws(KafkaError) in
                try reader.read([.init(partition: input.partition, start: from, stop: .partitionEnd)])
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
                    loaded.messagesByPartition[input.partitionID, default: 0] += 1
                    try take(m, input: input, into: &pages, sink: &sink, &loaded)
                }
            }
            if !reader.isDone {
                throw .kafka(
                    .timedOut(
                        "reading latest layouts from \(settings.stateTopic)[\(input.partition)] took longer than \(timeoutMs) ms",
                        isRetriable: false))
            }
            try sink.write(checkpoint: reader.position(input.partition) ?? end)
        }
        try cluster { () throws(KafkaError) in try reader.read([]) }
        loaded.seconds = (ContinuousClock.now - start) / .seconds(1)
        return loaded
    }

    /// When the latest-layout topic is not the one the store was filled from (deleted and created again under its
    /// name: its id differs), every page and checkpoint of the store is forgotten, since all came from the old
    /// topic, and the partitions are read from the beginning; the log names each and says why.
    private func forgetIfReplaced(
        _ reader: TopicRangeReader, _ disk: PageStore, _ partitions: [TopicPartition], _ loaded: inout Loaded
    ) throws(PageLoadError) {
        let id = try cluster { () throws(KafkaError) in try reader.topicID() }
        guard
            case .replaced(let was, let now) = try store({ () throws(PageStoreError) in
                try disk.check(topic: settings.stateTopic, id: id)
            })
        else { return }
        for input in partitions {
            logger.warning(
                "page store partition read again from the beginning: its latest-layout topic was created again",
                metadata: [
                    "partition": .string(input.description), "topic": .string(settings.stateTopic),
                    "topic-id-was": .string(was), "topic-id": .string(now),
                ])
        }
        loaded.rebuiltPartitions += partitions.count
        try store { () throws(PageStoreError) in
            try disk.forget(.everything, recording: settings.stateTopic, id: now)
        }
    }

    /// The low watermark and the end (as a fetch finds it) of each latest-layout partition.
    private func bounds(_ partitions: [Int32], fetching: Set<Int32>, _ reader: TopicRangeReader) throws(KafkaError)
        -> (low: [Int32: Int64], end: [Int32: Int64])
    {
        var lows: [Int32: Int64] = [:]
        var ends: [Int32: Int64] = [:]
        var at: Int32 = -1
        do {
            for p in partitions {
                at = p
                (lows[p], ends[p]) = try reader.watermarks(p)
            }
            if !fetching.isEmpty {
                ends.merge(try reader.fetchedEnds(partitions.filter(fetching.contains)), uniquingKeysWith: { $1 })
            }
            return (lows, ends)
        } catch {
            let which = at >= 0 && lows[at] == nil ? "partition \(at)" : "partitions \(partitions)"
            throw KafkaError(
                code: error.code, name: error.name,
                message: "latest-layout topic \(settings.stateTopic) \(which): \(error.message); "
                    + "create it compacted with as many partitions as the input",
                isFatal: error.isFatal, isRetriable: error.isRetriable)
        }
    }

    /// Where to read `input`'s pages from: its checkpoint when the store has one that the partition can have
    /// written (between the low watermark and the end), else the beginning, after the partition's pages on disk are
    /// deleted (the topic was recreated, or compacted or deleted past the checkpoint).
    /// (Pages are only ever written with their checkpoint, so a partition without one has no pages on disk.)
    private func startOffset(
        _ input: TopicPartition, checkpoint: Int64?, low: Int64, end: Int64, _ disk: PageStore?,
        _ loaded: inout Loaded
    ) throws(PageLoadError) -> Int64 {
        guard let disk, let checkpoint else { return low }
        if PageStore.isValid(checkpoint: checkpoint, low: low, end: end) { return checkpoint }
        logger.warning(
            "page store checkpoint outside the latest-layout partition; rebuilding its pages from the topic",
            metadata: [
                "partition": .string(input.description), "checkpoint": .stringConvertible(checkpoint),
                "low": .stringConvertible(low), "end": .stringConvertible(end),
            ])
        loaded.rebuiltPartitions += 1
        try store { () throws(PageStoreError) in
            try disk.removeScope(
                PageStore.Scope(input.partitionID), checkpoint: input.topic,
                partition: input.partition)
        }
        return low
    }

    /// One latest layout read back: to disk (batched) when there is a store, else into memory.
    private func take(
        _ m: KafkaMessage, input: TopicPartition, into pages: inout WorkerPages, sink: inout PageSink,
        _ loaded: inout Loaded
    ) throws(PageLoadError) {
        guard let source = m.header(Wire.Header.sourceTopic), source.elementsEqual(input.topic.utf8),
            let keyBytes = m.key
        else { return }
        let page = String(decoding: keyBytes, as: UTF8.self)
        let position = OutputHeaders.position(of: m)
        if m.value == nil { loaded.tombstones += 1 } else { loaded.layouts += 1 }
        if sink.disk != nil {
            try sink.add(page, StoredPage(position: position, record: m.value), through: m.offset)
            return
        }
        let key = PageKey(page, in: PageStore.Scope(input.partitionID))
        guard let value = m.value else {
            pages.loaded(WorkerPages.Page(layout: nil, position: position), for: key)
            return
        }
        do {
            pages.loaded(WorkerPages.Page(layout: try RecordOutline(bytes: value), position: position), for: key)
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
    let input: TopicPartition
    let disk: PageStore?
    let logged: Bool
    private var batch = PageStore.Batch()
    private var bytes = 0

    init(input: TopicPartition, disk: PageStore?, logged: Bool) {
        self.input = input
        self.disk = disk
        self.logged = logged
    }

    mutating func add(_ page: String, _ stored: StoredPage, through offset: Int64) throws(PageLoadError) {
        batch.pages.append((PageKey(page, in: PageStore.Scope(input.partitionID)), stored))
        bytes += stored.bytes + page.utf8.count
        if PageStore.Batch.isFull(pages: batch.pages.count, bytes: bytes) { try write(checkpoint: offset + 1) }
    }

    /// Writes what is batched with `checkpoint` (the next offset to read) as the partition's checkpoint.
    mutating func write(checkpoint: Int64) throws(PageLoadError) {
        guard let disk else { return }
        batch.checkpoints = [(input.topic, input.partition, checkpoint)]
        try store { () throws(PageStoreError) in try disk.write(batch, logged: logged) }
        batch = PageStore.Batch()
        bytes = 0
    }
}

/// A page store call: its failure is the store's (`PageLoadError.store`).
private func store<T>(_ body: () throws(PageStoreError) -> T) throws(PageLoadError) -> T {
    do {
        return try body()
    } catch {
        throw .store(error)
    }
}

/// A call to the brokers: its failure is the cluster's (`PageLoadError.kafka`).
private func cluster<T>(_ body: () throws(KafkaError) -> T) throws(PageLoadError) -> T {
    do {
        return try body()
    } catch {
        throw .kafka(error)
    }
}
