import Ops
public import Prometheus
import Synchronization

/// The gateway's counters, and `/metrics` with the page book's figures read at scrape time.
public final class GatewayMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    let exposition: MetricsExposition
    let recordRequests: Counter
    let notModified: Counter
    let bytesSent: Counter
    let streamsOpened: Counter
    let eventsWritten: Counter
    let recordsForSlowStreams: Counter
    let pages: Gauge
    let heldBytes: Gauge
    let streams: Gauge
    let evictions: Gauge
    let streamsRefused: Counter
    let streamLimit: Gauge
    let descriptorLimit: Gauge
    let changeSetFreshness: DurationHistogram
    let streamFreshness: DurationHistogram
    let fanOut: DurationHistogram
    let latestLag: Gauge
    let changesLag: Gauge
    let memoryLookups: Counter
    let diskLookups: Counter
    let storeUp: Gauge
    let storeDiskBytes: Gauge
    let storePages: Gauge
    let storeUnflushed: Gauge
    let catchUpSeconds: Gauge
    let catchUpMessages: Gauge
    /// Lookups already counted, so the book's totals become counter increments.
    private let counted = Mutex<(memory: Int, disk: Int)>((0, 0))

    public init(registry: PrometheusCollectorRegistry, build: [(String, String)]) {
        self.registry = registry
        exposition = MetricsExposition(registry: registry, build: build)
        recordRequests = registry.makeCounter(descriptor: Self.descriptor(MetricCatalog.gatewayRecordRequests))
        notModified = registry.makeCounter(descriptor: Self.descriptor(MetricCatalog.gatewayNotModified))
        bytesSent = registry.makeCounter(descriptor: Self.descriptor(MetricCatalog.gatewayRecordBytes))
        streamsOpened = registry.makeCounter(descriptor: Self.descriptor(MetricCatalog.gatewayStreamsOpened))
        eventsWritten = registry.makeCounter(descriptor: Self.descriptor(MetricCatalog.gatewayEventsWritten))
        recordsForSlowStreams = registry.makeCounter(
            descriptor: Self.descriptor(MetricCatalog.gatewaySlowStreamRecords))
        pages = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayPages))
        heldBytes = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayHeldBytes))
        streams = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayStreams))
        evictions = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayEvictions))
        streamsRefused = registry.makeCounter(descriptor: Self.descriptor(MetricCatalog.gatewayStreamsRefused))
        streamLimit = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayStreamLimit))
        descriptorLimit = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayDescriptorLimit))
        changeSetFreshness = registry.makeDurationHistogram(
            descriptor: Self.descriptor(MetricCatalog.gatewayChangeSetFreshness), buckets: Self.freshnessBuckets)
        streamFreshness = registry.makeDurationHistogram(
            descriptor: Self.descriptor(MetricCatalog.gatewayStreamFreshness), buckets: Self.freshnessBuckets)
        fanOut = registry.makeDurationHistogram(
            descriptor: Self.descriptor(MetricCatalog.gatewayFanOut), buckets: Self.fanOutBuckets)
        latestLag = registry.makeGauge(
            descriptor: Self.descriptor(MetricCatalog.gatewayLag), labels: [("topic", "latest")])
        changesLag = registry.makeGauge(
            descriptor: Self.descriptor(MetricCatalog.gatewayLag), labels: [("topic", "changes")])
        memoryLookups = registry.makeCounter(
            descriptor: Self.descriptor(MetricCatalog.gatewayPageLookups), labels: [("result", "memory")])
        diskLookups = registry.makeCounter(
            descriptor: Self.descriptor(MetricCatalog.gatewayPageLookups), labels: [("result", "disk")])
        storeUp = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayPageStoreUp))
        storeDiskBytes = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayPageStoreDiskBytes))
        storePages = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayPageStorePages))
        storeUnflushed = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayPageStoreUnflushed))
        catchUpSeconds = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayCatchUpSeconds))
        catchUpMessages = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayCatchUpMessages))
    }

    static let freshnessBuckets = MetricCatalog.freshnessBuckets
    static let fanOutBuckets: [Duration] = [
        .microseconds(100), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
    ]

    /// Sets the limit gauges.
    func limits(_ limits: StreamLimits) {
        streamLimit.set(Int64(limits.streams))
        descriptorLimit.set(Int64(limits.descriptors.soft))
    }

    /// The registry's name for a catalog family; its help is the catalog's, written by `MetricsExposition`.
    static func descriptor(_ family: MetricFamily) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: family.name, unitName: "", helpText: "")
    }

    /// The exposition, with the book's figures and the feed's lag as of now.
    func render(_ book: PageBook, _ status: GatewayStatus) -> [UInt8] {
        let lag = status.lag
        latestLag.set(lag.latest)
        changesLag.set(lag.changes)
        let f = book.figures
        pages.set(Int64(f.pages))
        heldBytes.set(Int64(f.bytes))
        streams.set(Int64(f.streams))
        evictions.set(Int64(f.evictions))
        let (memory, disk) = counted.withLock { c in
            defer { c = (f.memoryHits, f.diskReads) }
            return (f.memoryHits - c.memory, f.diskReads - c.disk)
        }
        memoryLookups.increment(by: Int64(max(0, memory)))
        diskLookups.increment(by: Int64(max(0, disk)))
        let store = book.disk
        storeUp.set(Int64(store != nil && f.writeFailure == nil ? 1 : 0))
        storeDiskBytes.set(Int64(store?.diskBytes ?? 0))
        storePages.set(Int64(store?.estimatedPages ?? 0))
        storeUnflushed.set(Int64(book.unflushed))
        let caughtUp = status.caughtUpAfter
        catchUpSeconds.set(to: caughtUp.seconds)
        catchUpMessages.set(Int64(caughtUp.messages))
        return exposition.render()
    }
}
