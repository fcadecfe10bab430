import Ops
public import Prometheus

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
    let broadcast: Gauge
    let latestLag: Gauge
    let changesLag: Gauge

    public init(registry: PrometheusCollectorRegistry, build: [(String, String)]) {
        self.registry = registry
        exposition = MetricsExposition(registry: registry, build: build)
        recordRequests = registry.makeCounter(name: MetricCatalog.gatewayRecordRequests.name)
        notModified = registry.makeCounter(name: MetricCatalog.gatewayNotModified.name)
        bytesSent = registry.makeCounter(name: MetricCatalog.gatewayRecordBytes.name)
        streamsOpened = registry.makeCounter(name: MetricCatalog.gatewayStreamsOpened.name)
        eventsWritten = registry.makeCounter(name: MetricCatalog.gatewayEventsWritten.name)
        recordsForSlowStreams = registry.makeCounter(name: MetricCatalog.gatewaySlowStreamRecords.name)
        pages = registry.makeGauge(name: MetricCatalog.gatewayPages.name)
        heldBytes = registry.makeGauge(name: MetricCatalog.gatewayHeldBytes.name)
        streams = registry.makeGauge(name: MetricCatalog.gatewayStreams.name)
        evictions = registry.makeGauge(name: MetricCatalog.gatewayEvictions.name)
        broadcast = registry.makeGauge(name: MetricCatalog.gatewayEventsQueued.name)
        latestLag = registry.makeGauge(name: MetricCatalog.gatewayLag.name, labels: [("topic", "latest")])
        changesLag = registry.makeGauge(name: MetricCatalog.gatewayLag.name, labels: [("topic", "changes")])
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
        broadcast.set(Int64(f.eventsSent))
        return exposition.render()
    }
}
