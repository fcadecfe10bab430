import Dispatch
import Foundation

/// Reads ranges of one topic's partitions by assignment, never joining a consumer group, so no live group is
/// disturbed: `replay`'s range, the latest layouts `serve` loads back, the preview following a topic, `tail`.
///
/// A range ends at its stop offset (exclusive): at a message at or past it, or at the end of the partition once
/// that end is at or past it (so a range whose last offsets hold no record, compacted away or transaction markers,
/// still ends); or at the end of the partition as the fetch finds it (what is there now, whatever a watermark
/// query said); or never. A finished partition is paused.
public final class TopicRangeReader {
    /// Where to read one partition.
    public struct Range: Sendable, Equatable {
        public var partition: Int32
        /// The first offset to read, or `Offset.beginning`.
        public var start: Int64
        public var stop: Stop

        /// Where a range ends.
        public enum Stop: Sendable, Equatable {
            /// Before this offset.
            case offset(Int64)
            /// At the end of the partition, as the fetch finds it.
            case partitionEnd
            /// Never: reads on.
            case never
        }

        public init(partition: Int32, start: Int64, stop: Stop = .never) {
            self.partition = partition
            self.start = start
            self.stop = stop
        }

        /// Whether the range holds nothing to read.
        var isEmpty: Bool {
            if case .offset(let end) = stop { start >= 0 && start >= end } else { false }
        }
    }

    public let topic: String
    /// How the reader reached the cluster (its topic-id lookups use a client of their own, `topicID`).
    let configuration: KafkaConfiguration
    let consumer: KafkaConsumer
    /// Asks for topic ids (`topicIDs`); made on first use, destroyed with the reader.
    private var admin: KafkaAdmin?
    private var ranges: [Int32: Range] = [:]
    /// Partitions whose range is read to its end.
    public private(set) var finished: Set<Int32> = []
    /// Partitions read up to their end at least once (whatever their range's stop): a reader that reads on knows
    /// when it has caught up.
    public private(set) var reachedEnd: Set<Int32> = []
    /// The next offset to read per partition, as far as messages and partition ends told.
    private var positions: [Int32: Int64] = [:]
    /// Each partition's end as `fetchedEnds` found it: a range read up to it has reached the end of its partition
    /// as surely as a partition-end event says so (that event is the only other sign, and it comes once per fetch
    /// position: a reader that already saw it at this offset may not see it again).
    private var fetchedEnd: [Int32: Int64] = [:]

    /// A reader of `topic`; `fetchWaitMs` bounds how long the broker holds a fetch for new data.
    public init(configuration: KafkaConfiguration, topic: String, fetchWaitMs: Int = 50) throws(KafkaError) {
        self.topic = topic
        self.configuration = configuration
        consumer = try KafkaConsumer(
            configuration: configuration, groupID: nil,
            // 1 MiB prefetched per partition at most (librdkafka's default is 64 MiB), counted as fetched:
            // compressed batches take many times that once decompressed (a million lz4-compressed 2 KB layouts: a
            // gateway's peak 40 MiB higher at 2 MiB, 100 MiB at 16 MiB); at 256 KiB a catch-up of 45 KB layouts waits
            // for fetches. With the queue full librdkafka waits `fetch.queue.backoff.ms` before fetching again: 1 s
            // by default, and at 20 ms a bare reader of 100,000 45 KB layouts (4.8 GB) took 19 s instead of 7 s, a
            // gateway's catch-up 21 s instead of 15 s (at 0 ms librdkafka spins: 40% more CPU, and slower).
            defaults: [
                "fetch.wait.max.ms": String(fetchWaitMs), "queued.max.messages.kbytes": "1024",
                "fetch.queue.backoff.ms": "1",
            ],
            reportsPartitionEnd: true)
    }

    /// A partition asked for that the topic does not have.
    public struct NoSuchPartition: Error, CustomStringConvertible {
        public let description: String
    }

    /// The partitions of a topic, from the cluster's metadata; nil when it does not exist.
    public static func partitions(
        of topic: String, configuration: KafkaConfiguration, timeoutMs: Int32 = 5_000
    ) throws(KafkaError) -> [Int32]? {
        try KafkaAdmin(configuration: configuration).partitionCount(topic: topic, timeoutMs: timeoutMs).map {
            (0..<Int32(clamping: $0)).map { $0 }
        }
    }

    /// `chosen` once checked to be among a topic's partitions `all` (all of them when nil).
    public static func choose(_ chosen: [Int32]?, among all: [Int32], of topic: String) throws(NoSuchPartition)
        -> [Int32]
    {
        for p in chosen ?? [] where !all.contains(p) {
            throw NoSuchPartition(
                description: "\(topic) has no partition \(p) (it has partitions 0 to \(all.count - 1))")
        }
        return chosen ?? all
    }

    /// A partition's low and high watermarks, from the broker.
    public func watermarks(_ partition: Int32) throws(KafkaError) -> (low: Int64, high: Int64) {
        try consumer.queryWatermarks(topic: topic, partition: partition)
    }

    /// Where a partition's messages are: from its low watermark (the broker's) to its end as a fetch finds it.
    public struct Extent: Sendable, Equatable {
        public var low: Int64
        public var end: Int64

        public init(low: Int64, end: Int64) {
            self.low = low
            self.end = end
        }
    }

    /// Each of `partitions`' extent. A watermark query can under-report the end (Tansu answers with its last batch's
    /// first offset + 1), a fetch's end of partition does not: each partition's last batch is read, all at once, by
    /// a short-lived reader of its own, so this reader's consumer is assigned only the ranges it reads (assigning a
    /// partition again after reading it to its end, paused, has left it fetching nothing under load). What this
    /// reader reads is untouched.
    public func extents(_ partitions: [Int32], timeoutMs: Int = 10_000) throws(KafkaError) -> [Int32: Extent] {
        let probe = try TopicRangeReader(configuration: configuration, topic: topic)
        defer { probe.close() }
        let extents = try probe.lastBatchesRead(partitions, timeoutMs: timeoutMs)
        for (p, extent) in extents { fetchedEnd[p] = extent.end }
        return extents
    }

    /// Reads each of `partitions`' last batch to the end of the partition (`extents`).
    private func lastBatchesRead(_ partitions: [Int32], timeoutMs: Int) throws(KafkaError) -> [Int32: Extent] {
        var marks: [Int32: (low: Int64, high: Int64)] = [:]
        var ranges: [Range] = []
        for p in partitions {
            let (low, high) = try watermarks(p)
            marks[p] = (low, high)
            ranges.append(.init(partition: p, start: max(low, high - 1), stop: .partitionEnd))
        }
        try read(ranges)
        let deadline = DispatchTime.now() + .milliseconds(timeoutMs)
        while !isDone && DispatchTime.now() < deadline {
            if case .failure(let e)? = next(timeoutMs: 100), e.isFatal { throw e }
        }
        var extents: [Int32: Extent] = [:]
        for p in partitions {
            guard reachedEnd.contains(p), let end = positions[p], let mark = marks[p] else {
                throw KafkaError.timedOut("\(topic)[\(p)]: no end of partition within \(timeoutMs) ms")
            }
            extents[p] = Extent(low: mark.low, end: max(end, mark.high))
        }
        return extents
    }

    /// The end of each of `partitions` as a fetch finds it (`extents`).
    public func fetchedEnds(_ partitions: [Int32], timeoutMs: Int = 10_000) throws(KafkaError) -> [Int32: Int64] {
        try extents(partitions, timeoutMs: timeoutMs).mapValues(\.end)
    }

    /// The next offset of `partition` as far as what was read told (nil before anything was).
    public func position(_ partition: Int32) -> Int64? { positions[partition] }

    /// The cluster's id, nil when no broker answers in time.
    public func clusterID(timeoutMs: Int32 = 5_000) -> String? { consumer.clusterID(timeoutMs: timeoutMs) }

    /// The cluster's id (`KafkaConsumer.knownClusterID`).
    public func knownClusterID(timeoutMs: Int32 = 10_000) throws(KafkaError) -> String {
        try consumer.knownClusterID(timeoutMs: timeoutMs)
    }

    /// The ids (KIP-516) of `topics` the brokers give, in one request; empty when they give none, cannot describe
    /// topics, or do not answer within `timeoutMs` and 5 s more (the caller then checks checkpoints against the
    /// ranges alone). Only a retriable error other than that timeout is thrown. Asked by an admin client of the
    /// reader's (a consumer's handle has left the request unanswered), kept until the reader goes: destroying a
    /// librdkafka client can take a second (its internal broker thread waits out a 1 s cycle), which a short-lived
    /// one added to every rebuild of a worker's partitions.
    public func topicIDs(_ topics: [String], timeoutMs: Int32 = 5_000) throws(KafkaError) -> [String: String] {
        do throws(KafkaError) {
            let admin: KafkaAdmin
            if let made = self.admin { admin = made } else { admin = try KafkaAdmin(configuration: configuration) }
            self.admin = admin
            return try admin.topicIDs(topics, timeoutMs: timeoutMs)
        } catch {
            guard error.isRetriable, error.code != .timedOut else { return [:] }
            throw error
        }
    }

    /// The broker's answer for the first offset of `partition` whose timestamp is at or after `time` (ms); nil when
    /// there is none. Check it against the records (`TimeLookup` in replay does).
    public func offset(atOrAfter time: Int64, partition: Int32) throws(KafkaError) -> Int64? {
        let answer = try consumer.offsetsForTimes([Partition(topic, partition).at(time)]).first?.offset ?? -1
        return answer < 0 ? nil : answer
    }

    /// Reads these ranges from now on (in place of any before); an empty range is finished at once.
    public func read(_ ranges: [Range]) throws(KafkaError) {
        self.ranges = Dictionary(ranges.map { ($0.partition, $0) }, uniquingKeysWith: { $1 })
        finished = Set(ranges.filter(\.isEmpty).map(\.partition))
        reachedEnd = []
        let assigned = ranges.filter { !$0.isEmpty }
        try consumer.assign(assigned.map { Partition(topic, $0.partition).at($0.start) })
        // A partition finished by an earlier range was paused; librdkafka keeps that across assignments.
        consumer.resume(assigned.map { Partition(topic, $0.partition) })
        for range in assigned where range.start >= 0 { passed(range.start, partition: range.partition) }
    }

    /// The reader is at `offset` of `partition` (read up to it, or starting there): at or past the partition's
    /// fetched end, it has reached its end.
    private func passed(_ offset: Int64, partition: Int32) {
        guard let end = fetchedEnd[partition], offset >= end else { return }
        arrivedAtEnd(partition, at: offset)
    }

    /// `partition` is read to its end, now at `offset`: a range that stops there is finished.
    private func arrivedAtEnd(_ partition: Int32, at offset: Int64) {
        reachedEnd.insert(partition)
        positions[partition] = offset
        switch ranges[partition]?.stop {
        case .offset(let stop)? where offset >= stop: finish(partition)
        case .partitionEnd?: finish(partition)
        default: break
        }
    }

    /// Whether every partition was read up to its end at least once.
    public var hasCaughtUp: Bool { reachedEnd.count == ranges.count }

    /// Whether every range is read to its end.
    public var isDone: Bool { finished.count == ranges.count }

    /// The next message inside a range within `timeoutMs`; an error event (fatal or not: the caller decides); nil
    /// when nothing arrived, or what arrived was the end of a partition or past its range.
    public func next(timeoutMs: Int32) -> Result<KafkaMessage, KafkaError>? {
        switch consumer.pollEvent(timeoutMs: timeoutMs) {
        case .message(let m)?:
            guard let range = ranges[m.partition], !finished.contains(m.partition) else { return nil }
            if case .offset(let stop) = range.stop {
                guard m.offset < stop else {
                    finish(m.partition)
                    return nil
                }
                if m.offset + 1 >= stop { finish(m.partition) }
            }
            positions[m.partition] = m.offset + 1
            passed(m.offset + 1, partition: m.partition)
            return .success(m)
        case .partitionEnd(_, let partition, let offset)?:
            arrivedAtEnd(partition, at: offset)
            return nil
        case .error(let e)?:
            return .failure(e)
        case nil:
            return nil
        }
    }

    private func finish(_ partition: Int32) {
        finished.insert(partition)
        consumer.pause([Partition(topic, partition)])
    }

    /// Messages written to the ranges' partitions and not read yet, from the watermarks the last fetches reported
    /// (no broker round trip); partitions not fetched yet count nothing.
    public var lag: Int64 {
        positions.reduce(Int64(0)) { sum, p in
            guard let high = consumer.cachedWatermarks(topic: topic, partition: p.key)?.high else { return sum }
            return sum + max(0, high - p.value)
        }
    }

    /// Leaves the brokers; the reader cannot be used afterwards.
    public func close() { consumer.close() }
}
