public import ConfigReload
public import CoreMetrics
public import Delivery
import Kafka
import LayoutDiff
import Metrics
import Ops
import PageState
import Synchronization

/// The service's counters and gauges, made from an injected metrics factory; every name comes from `MetricCatalog`.
public final class WorkerMetrics: DeliveryMetrics, ConfigReloadMetrics {
    let factory: any MetricsFactory
    let consumed: Counter
    let published: Counter
    let skipped: Counter
    let inFlight: Gauge
    let inFlightBytes: Gauge
    let compileLatency: Timer
    let freshness: Timer
    /// Last cumulative values seen, so cumulative figures (librdkafka's totals, store evictions) become counters.
    private let lastTotals = Mutex<[String: Int]>([:])

    public init(factory: any MetricsFactory) {
        self.factory = factory
        consumed = Counter(label: MetricCatalog.consumed.name, factory: factory)
        published = Counter(label: MetricCatalog.published.name, factory: factory)
        skipped = Counter(label: MetricCatalog.skipped.name, factory: factory)
        inFlight = Gauge(label: MetricCatalog.inFlight.name, factory: factory)
        inFlightBytes = Gauge(label: MetricCatalog.inFlightBytes.name, factory: factory)
        compileLatency = Timer(
            label: MetricCatalog.compileSeconds.name, dimensions: [], preferredDisplayUnit: .seconds, factory: factory)
        freshness = Timer(
            label: MetricCatalog.freshness.name, dimensions: [], preferredDisplayUnit: .seconds, factory: factory)
        // Families that must show from the first scrape, before anything happened.
        for family in [
            MetricCatalog.produceRetries, MetricCatalog.producerReplacements, MetricCatalog.commits,
            MetricCatalog.commitFailures, MetricCatalog.configReloads, MetricCatalog.configReloadFailures,
        ] {
            Counter(label: family.name, factory: factory).increment(by: 0)
        }
        FloatingPointCounter(label: MetricCatalog.outputBlockedSeconds.name, factory: factory).increment(by: 0)
        Gauge(label: MetricCatalog.outputBlocked.name, factory: factory).record(0)
        Gauge(label: MetricCatalog.ready.name, factory: factory).record(0)
        Gauge(label: MetricCatalog.assignedPartitions.name, factory: factory).record(0)
        inFlight.record(0)
        inFlightBytes.record(0)
    }

    private func counter(_ family: MetricFamily, _ dimensions: [(String, String)] = []) -> Counter {
        Counter(label: family.name, dimensions: dimensions, factory: factory)
    }

    private func gauge(_ family: MetricFamily, _ dimensions: [(String, String)] = []) -> Gauge {
        Gauge(label: family.name, dimensions: dimensions, factory: factory)
    }

    /// Adds the growth of a cumulative figure since it was last seen (all of it when it went down: a new client).
    private func total(_ family: MetricFamily, _ dimensions: [(String, String)], _ value: Int) {
        let key = family.name + dimensions.map { "|\($0.0)=\($0.1)" }.joined()
        let delta = lastTotals.withLock { last -> Int in
            let previous = last[key] ?? 0
            last[key] = value
            return value >= previous ? value - previous : value
        }
        counter(family, dimensions).increment(by: delta)
    }

    func deadLettered(code: String) { counter(MetricCatalog.deadLettered, [("code", code)]).increment() }

    /// Counts a settled message by how it ended.
    func settled(_ settlement: DeliveryEngine.Settlement) {
        switch settlement {
        case .published, .tombstoned: published.increment()
        case .skipped: skipped.increment()
        case .deadLettered(let code): deadLettered(code: code)
        }
    }

    func diagnostic(code: String, count: Int) {
        counter(MetricCatalog.diagnostics, [("code", code)]).increment(by: count)
    }

    func changeSet(_ summary: ChangeSummary) {
        counter(MetricCatalog.changeSets).increment()
        if summary.replacedLists > 0 || summary.replacedRecord {
            counter(MetricCatalog.changeSetFullReplaces).increment(
                by: summary.replacedLists + (summary.replacedRecord ? 1 : 0))
        }
    }

    /// A change set not made: `no-page-key`, `redelivered` (an input at or before its page's position),
    /// `unchanged` (the page's layout but for `source`) or `state-not-stored` (the latest layout it waited for was
    /// refused).
    func changeSetsRepublished(_ count: Int) { counter(MetricCatalog.changeSetsRepublished).increment(by: count) }

    func stepsUncarried(_ count: Int) { counter(MetricCatalog.stepsUncarried).increment(by: count) }

    func changeSetSkipped(reason: String) { counter(MetricCatalog.changeSetsSkipped, [("reason", reason)]).increment() }

    func store(bytes: Int, layouts: Int, evictions: Int) {
        gauge(MetricCatalog.storeBytes).record(bytes)
        gauge(MetricCatalog.storeLayouts).record(layouts)
        total(MetricCatalog.storeEvictions, [], evictions)
    }

    /// The pages in memory and on disk (`disk` nil: no page store).
    func pages(_ pages: WorkerPages, disk: (bytes: Int, pages: Int)?) {
        store(bytes: pages.cache.bytes, layouts: pages.count, evictions: pages.cache.evictions)
        total(MetricCatalog.pageLookups, [("result", "memory")], pages.hits)
        total(MetricCatalog.pageLookups, [("result", "disk")], pages.misses)
        gauge(MetricCatalog.pageStoreUp).record(disk != nil && pages.writeFailure == nil ? 1 : 0)
        gauge(MetricCatalog.pageStoreUnstored).record(pages.unstoredCount)
        if let disk {
            gauge(MetricCatalog.pageStoreDiskBytes).record(disk.bytes)
            gauge(MetricCatalog.pageStorePages).record(disk.pages)
        }
    }

    func stateRead(messages: Int) { counter(MetricCatalog.stateReadMessages).increment(by: messages) }

    /// How far a partition's page store checkpoint trailed the latest-layout topic when it was last assigned.
    func checkpointLag(_ partition: Partition, messages: Int) {
        gauge(
            MetricCatalog.pageStoreCheckpointLag,
            [("topic", partition.topic), ("partition", String(partition.number))]
        ).record(messages)
    }

    /// A layout record acknowledged on the output topic: how long after its input was written to Kafka.
    func recordAcknowledged(inputTimestampMs: Int64) {
        freshness.recordNanoseconds(InputAge.nanoseconds(since: inputTimestampMs))
    }

    func stateRebuilt(seconds: Double) {
        Timer(
            label: MetricCatalog.stateRebuildSeconds.name, dimensions: [], preferredDisplayUnit: .seconds,
            factory: factory
        )
        .recordNanoseconds(Int64(seconds * 1e9))
    }

    public func retried(parts: Int) { counter(MetricCatalog.produceRetries).increment(by: parts) }

    public func outputBlocked(seconds: Double) {
        FloatingPointCounter(label: MetricCatalog.outputBlockedSeconds.name, factory: factory).increment(by: seconds)
    }

    func outputBlocked(_ blocked: Bool) { gauge(MetricCatalog.outputBlocked).record(blocked ? 1 : 0) }

    func inFlight(messages: Int, bytes: Int) {
        inFlight.record(messages)
        inFlightBytes.record(bytes)
    }

    public func producerReplaced() { counter(MetricCatalog.producerReplacements).increment() }

    func rebalanced(assigned: Bool, partitions: Int) {
        counter(MetricCatalog.rebalances, [("kind", assigned ? "assigned" : "revoked")]).increment()
        gauge(MetricCatalog.assignedPartitions).record(partitions)
    }

    func commitSent() { counter(MetricCatalog.commits).increment() }

    func commitFailed() { counter(MetricCatalog.commitFailures).increment() }

    func uncommitted(topic: String, partition: Int32, messages: Int64, seconds: Double) {
        let labels = [("topic", topic), ("partition", String(partition))]
        gauge(MetricCatalog.uncommitted, labels).record(messages)
        gauge(MetricCatalog.uncommittedSeconds, labels).record(seconds)
    }

    /// A partition this worker no longer owns: its per-partition series go from `/metrics` (a lag of 0 left behind
    /// would say it is caught up on a partition nobody may be reading).
    func partitionGone(topic: String, partition: Int32) {
        let labels = [("topic", topic), ("partition", String(partition))]
        for family in [
            MetricCatalog.lag, MetricCatalog.lagSeconds, MetricCatalog.uncommitted, MetricCatalog.uncommittedSeconds,
            MetricCatalog.pageStoreCheckpointLag,
        ] {
            gauge(family, labels).destroy()
        }
    }

    func ready(_ ready: Bool) { gauge(MetricCatalog.ready).record(ready ? 1 : 0) }

    /// The config in use is `hash` (and no longer `previous`).
    public func config(hash: String, previous: String? = nil) {
        if let previous, previous != hash { gauge(MetricCatalog.configInfo, [("config", previous)]).record(0) }
        gauge(MetricCatalog.configInfo, [("config", hash)]).record(1)
    }

    public func configReloaded(failed: Bool) {
        counter(failed ? MetricCatalog.configReloadFailures : MetricCatalog.configReloads).increment()
    }

    func crashBreaker(enabled: Bool) { gauge(MetricCatalog.crashBreakerEnabled).record(enabled ? 1 : 0) }

    func lag(topic: String, partition: Int32, messages: Int64, seconds: Double) {
        let labels = [("topic", topic), ("partition", String(partition))]
        gauge(MetricCatalog.lag, labels).record(messages)
        gauge(MetricCatalog.lagSeconds, labels).record(seconds)
    }

    /// One librdkafka statistics document, as metrics labelled with the client (`consumer`, `producer`).
    func statistics(_ s: KafkaStatistics) {
        let client = [("client", s.type)]
        gauge(MetricCatalog.kafkaReplyQueue, client).record(s.replyQueue)
        gauge(MetricCatalog.kafkaMessagesQueued, client).record(s.messagesQueued)
        total(MetricCatalog.kafkaRequestsSent, client, s.requestsSent)
        total(MetricCatalog.kafkaBytesSent, client, s.bytesSent)
        total(MetricCatalog.kafkaResponsesReceived, client, s.responsesReceived)
        total(MetricCatalog.kafkaBytesReceived, client, s.bytesReceived)
        for b in s.brokers where b.nodeID >= 0 {
            let labels = [("client", s.type), ("broker", b.name)]
            gauge(MetricCatalog.kafkaBrokerUp, labels).record(b.state == "UP" ? 1 : 0)
            gauge(MetricCatalog.kafkaBrokerWaiting, labels).record(b.waiting)
            gauge(MetricCatalog.kafkaBrokerRTT, labels + [("stat", "avg")]).record(Double(b.rttAverageMicros) / 1e6)
            gauge(MetricCatalog.kafkaBrokerRTT, labels + [("stat", "p99")]).record(Double(b.rttP99Micros) / 1e6)
        }
        for p in s.partitions {
            let labels = [("topic", p.topic), ("partition", String(p.partition))]
            gauge(MetricCatalog.kafkaConsumerLag, labels).record(p.consumerLag)
            gauge(MetricCatalog.kafkaFetchQueue, labels).record(p.fetchQueue)
        }
    }
}
