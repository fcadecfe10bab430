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
        broadcast = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.gatewayEventsQueued))
        latestLag = registry.makeGauge(
            descriptor: Self.descriptor(MetricCatalog.gatewayLag), labels: [("topic", "latest")])
        changesLag = registry.makeGauge(
            descriptor: Self.descriptor(MetricCatalog.gatewayLag), labels: [("topic", "changes")])
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
        broadcast.set(Int64(f.eventsSent))
        return exposition.render()
    }
}
