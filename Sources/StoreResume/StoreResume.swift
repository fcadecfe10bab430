public import Kafka
public import Logging
public import PageStore

/// Where a page store resumes reading the topics it was filled from: the one step `serve`'s worker (on assignment)
/// and the gateway (on start) take before they read, so both trust a checkpoint for the same reasons.
///
/// 1. A topic whose id is not the one the store recorded was deleted and created again under its name: for the
///    pages topic (latest layouts) every page and checkpoint is forgotten, since all came from it; for the companion
///    topic (the gateway's change sets) its checkpoints are.
/// 2. A pages checkpoint outside its partition (below the low watermark, or past the end as a fetch finds it) means
///    the topic was deleted past it: the pages of its scope, the checkpoints of every source in that scope, and the
///    companion's checkpoints (what they recorded went with those pages) are removed, and those sources are read
///    from the beginning.
/// 3. A companion checkpoint outside its partition is not used (that partition starts where a new store's would).
///
/// Each is logged per partition with the reason.
public struct StoreResume {
    /// What the step asks of a topic's brokers (a `TopicRangeReader`; tests give their own).
    public protocol Topic {
        var topic: String { get }
        /// The ids (KIP-516) the brokers give for `topics`; none for a topic without one.
        func topicIDs(_ topics: [String], timeoutMs: Int32) throws(KafkaError) -> [String: String]
        /// Each partition's low watermark and end as a fetch finds it.
        func extents(_ partitions: [Int32], timeoutMs: Int) throws(KafkaError) -> [Int32: TopicRangeReader.Extent]
    }

    /// Pages the store holds from one partition of the pages topic.
    public struct Source: Sendable, Hashable {
        /// Where the store keeps its checkpoint (the worker: under its input partition; the gateway: under the
        /// latest-layout partition).
        public var checkpoint: Partition
        /// The partition of the pages topic it is read from.
        public var read: Int32
        /// Where its pages are in the store.
        public var scope: PageStore.Scope

        public init(checkpoint: Partition, read: Int32, scope: PageStore.Scope) {
            self.checkpoint = checkpoint
            self.read = read
            self.scope = scope
        }
    }

    /// Where a source starts reading.
    public enum Start: Sendable, Equatable {
        /// From its checkpoint; `extent` is its partition's as the check found it.
        case checkpoint(Int64, TopicRangeReader.Extent)
        /// From the beginning: the store holds none of its pages.
        case beginning
    }

    /// The step's answer.
    public struct Plan: Sendable {
        /// Each source's start, by `Source.checkpoint`.
        public var starts: [Partition: Start] = [:]
        /// The companion topic's partitions whose checkpoint can be used, with it.
        public var companion: [Int32: Int64] = [:]
        /// Sources read from the beginning although the store had taken them in (a replaced topic, a checkpoint
        /// outside its partition).
        public var rebuilt = 0

        /// Whether no source starts from a checkpoint (the store holds no page).
        public var startsEmpty: Bool { !starts.values.contains { if case .checkpoint = $0 { true } else { false } } }
    }

    let store: PageStore
    let logger: Logger

    public init(store: PageStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Checks the store against the topics as the brokers have them now and says where each source (and each of
    /// the companion's `partitions`) starts; removes what cannot be trusted first.
    public func plan(
        pages: any Topic, _ sources: [Source], companion: (reader: any Topic, partitions: [Int32])? = nil
    ) throws(PageLoadError) -> Plan {
        var plan = Plan()
        try forgetReplaced(pages: pages, sources, companion: companion, &plan)
        var checkpoints: [Source: Int64] = [:]
        for source in sources {
            checkpoints[source] = try PageLoadError.storeCall { () throws(PageStoreError) in
                try store.checkpoint(topic: source.checkpoint.topic, partition: source.checkpoint.number)
            }
        }
        // Checked against each partition's end as a fetch finds it (one fetch for all; none for a new store).
        let checked = Set(checkpoints.keys.map(\.read)).sorted()
        let extents = try checked.isEmpty ? [:] : self.extents(of: checked, in: pages)
        var removed: Set<PageStore.Scope> = []
        for source in sources.sorted(by: { $0.checkpoint < $1.checkpoint }) {
            guard !removed.contains(source.scope), let checkpoint = checkpoints[source],
                let extent = extents[source.read]
            else {
                plan.starts[source.checkpoint] = .beginning
                continue
            }
            if PageStore.isValid(checkpoint: checkpoint, low: extent.low, end: extent.end) {
                plan.starts[source.checkpoint] = .checkpoint(checkpoint, extent)
                continue
            }
            try remove(source, outside: extent, checkpoint: checkpoint, sources, companion: companion, &plan)
            removed.insert(source.scope)
        }
        plan.rebuilt += checkpoints.keys.filter { plan.starts[$0.checkpoint] == .beginning }.count
        guard removed.isEmpty, let companion else { return plan }
        plan.companion = try usableCheckpoints(of: companion.reader, companion.partitions)
        return plan
    }

    /// Forgets what the store took from a topic created again under its name (its id differs from the recorded one).
    private func forgetReplaced(
        pages: any Topic, _ sources: [Source], companion: (reader: any Topic, partitions: [Int32])?,
        _ plan: inout Plan
    ) throws(PageLoadError) {
        let topics = [pages.topic] + (companion.map { [$0.reader.topic] } ?? [])
        let ids = try PageLoadError.clusterCall { () throws(KafkaError) in try pages.topicIDs(topics, timeoutMs: 5_000)
        }
        let replaced = [
            (pages.topic, sources.map(\.checkpoint.description), PageStore.Forgetting.everything),
            companion.map { c in
                (
                    c.reader.topic, c.partitions.map { Partition(c.reader.topic, $0).description },
                    .checkpoints(c.partitions)
                )
            },
        ]
        for case let (topic, partitions, forgetting)? in replaced {
            guard
                case .replaced(let was, let now) = try PageLoadError.storeCall({ () throws(PageStoreError) in
                    try store.check(topic: topic, id: ids[topic])
                })
            else { continue }
            let what =
                if case .everything = forgetting {
                    "page store partition read again from the beginning: its topic was created again"
                } else {
                    "page store checkpoint forgotten: its topic was created again"
                }
            for partition in partitions {
                logger.warning(
                    "\(what)",
                    metadata: [
                        "partition": .string(partition), "topic": .string(topic), "topic-id-was": .string(was),
                        "topic-id": .string(now),
                    ])
            }
            if case .everything = forgetting { plan.rebuilt += sources.count }
            try PageLoadError.storeCall { () throws(PageStoreError) in
                try store.forget(forgetting, recording: topic, id: now)
            }
        }
    }

    /// Removes the pages of `source`'s scope, whose checkpoint its partition no longer holds, with the checkpoints
    /// of every source in that scope and the companion's; those sources start from the beginning.
    private func remove(
        _ source: Source, outside extent: TopicRangeReader.Extent, checkpoint: Int64, _ sources: [Source],
        companion: (reader: any Topic, partitions: [Int32])?, _ plan: inout Plan
    ) throws(PageLoadError) {
        logger.warning(
            "page store checkpoint outside the latest-layout partition; rebuilding its pages from the topic",
            metadata: [
                "partition": .string(source.checkpoint.description), "checkpoint": .stringConvertible(checkpoint),
                "low": .stringConvertible(extent.low), "end": .stringConvertible(extent.end),
            ])
        let sharing = sources.filter { $0.scope == source.scope }
        for other in sharing { plan.starts[other.checkpoint] = .beginning }
        let checkpoints =
            sharing.map { ($0.checkpoint.topic, $0.checkpoint.number) }
            + (companion.map { c in c.partitions.map { (c.reader.topic, $0) } } ?? [])
        try PageLoadError.storeCall { () throws(PageStoreError) in
            try store.removeScope(
                source.scope, checkpoint: source.checkpoint.topic, partition: source.checkpoint.number)
            try store.removeCheckpoints(checkpoints)
        }
    }

    /// The companion topic's checkpoints that lie within their partitions.
    private func usableCheckpoints(of reader: any Topic, _ partitions: [Int32]) throws(PageLoadError)
        -> [Int32: Int64]
    {
        var checkpoints: [Int32: Int64] = [:]
        for p in partitions {
            checkpoints[p] = try PageLoadError.storeCall { () throws(PageStoreError) in
                try store.checkpoint(topic: reader.topic, partition: p)
            }
        }
        guard !checkpoints.isEmpty else { return [:] }
        let extents = try self.extents(of: partitions, in: reader)
        return checkpoints.filter { p, checkpoint in
            extents[p].map { PageStore.isValid(checkpoint: checkpoint, low: $0.low, end: $0.end) } ?? false
        }
    }

    /// `partitions`' extents; a failure names the topic and what it must be.
    private func extents(of partitions: [Int32], in reader: any Topic) throws(PageLoadError)
        -> [Int32: TopicRangeReader.Extent]
    {
        do {
            return try reader.extents(partitions, timeoutMs: 10_000)
        } catch {
            throw .kafka(error.about("topic \(reader.topic) partitions \(partitions)"))
        }
    }
}

extension TopicRangeReader: StoreResume.Topic {}
