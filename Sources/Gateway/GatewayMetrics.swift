public import CoreMetrics
public import Ops
import Synchronization

/// The gateway's counters, and `/metrics` with the page book's figures read at scrape time.
public final class GatewayMetrics: Sendable {
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
    let changeSetFreshness: Timer
    let streamFreshness: Timer
    let fanOut: Timer
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

    /// Records through `factory` (made by `MetricCatalog.factory(on:)` on the registry `exposition` renders).
    public init(factory: any MetricsFactory, exposition: MetricsExposition) {
        self.exposition = exposition
        func counter(_ family: MetricFamily, _ dimensions: [(String, String)] = []) -> Counter {
            let c = Counter(label: family.name, dimensions: dimensions, factory: factory)
            c.increment(by: 0)  // shown from the first scrape
            return c
        }
        func gauge(_ family: MetricFamily, _ dimensions: [(String, String)] = []) -> Gauge {
            let g = Gauge(label: family.name, dimensions: dimensions, factory: factory)
            g.record(0)
            return g
        }
        func timer(_ family: MetricFamily) -> Timer {
            Timer(label: family.name, dimensions: [], preferredDisplayUnit: .seconds, factory: factory)
        }
        recordRequests = counter(MetricCatalog.gatewayRecordRequests)
        notModified = counter(MetricCatalog.gatewayNotModified)
        bytesSent = counter(MetricCatalog.gatewayRecordBytes)
        streamsOpened = counter(MetricCatalog.gatewayStreamsOpened)
        eventsWritten = counter(MetricCatalog.gatewayEventsWritten)
        recordsForSlowStreams = counter(MetricCatalog.gatewaySlowStreamRecords)
        pages = gauge(MetricCatalog.gatewayPages)
        heldBytes = gauge(MetricCatalog.gatewayHeldBytes)
        streams = gauge(MetricCatalog.gatewayStreams)
        evictions = gauge(MetricCatalog.gatewayEvictions)
        streamsRefused = counter(MetricCatalog.gatewayStreamsRefused)
        streamLimit = gauge(MetricCatalog.gatewayStreamLimit)
        descriptorLimit = gauge(MetricCatalog.gatewayDescriptorLimit)
        changeSetFreshness = timer(MetricCatalog.gatewayChangeSetFreshness)
        streamFreshness = timer(MetricCatalog.gatewayStreamFreshness)
        fanOut = timer(MetricCatalog.gatewayFanOut)
        latestLag = gauge(MetricCatalog.gatewayLag, [("topic", "latest")])
        changesLag = gauge(MetricCatalog.gatewayLag, [("topic", "changes")])
        memoryLookups = counter(MetricCatalog.gatewayPageLookups, [("result", "memory")])
        diskLookups = counter(MetricCatalog.gatewayPageLookups, [("result", "disk")])
        storeUp = gauge(MetricCatalog.gatewayPageStoreUp)
        storeDiskBytes = gauge(MetricCatalog.gatewayPageStoreDiskBytes)
        storePages = gauge(MetricCatalog.gatewayPageStorePages)
        storeUnflushed = gauge(MetricCatalog.gatewayPageStoreUnflushed)
        catchUpSeconds = gauge(MetricCatalog.gatewayCatchUpSeconds)
        catchUpMessages = gauge(MetricCatalog.gatewayCatchUpMessages)
    }

    /// Sets the limit gauges.
    func limits(_ limits: StreamLimits) {
        streamLimit.record(Int64(limits.streams))
        descriptorLimit.record(Int64(limits.descriptors.soft))
    }

    /// The exposition, with the book's figures and the feed's lag as of now.
    func render(_ book: PageBook, _ status: GatewayStatus) -> [UInt8] {
        let lag = status.lag
        latestLag.record(lag.latest)
        changesLag.record(lag.changes)
        let f = book.figures
        pages.record(Int64(f.pages))
        heldBytes.record(Int64(f.bytes))
        streams.record(Int64(f.streams))
        evictions.record(Int64(f.evictions))
        let (memory, disk) = counted.withLock { c in
            defer { c = (f.memoryHits, f.diskReads) }
            return (f.memoryHits - c.memory, f.diskReads - c.disk)
        }
        memoryLookups.increment(by: Int64(max(0, memory)))
        diskLookups.increment(by: Int64(max(0, disk)))
        let store = book.disk
        storeUp.record(Int64(store != nil && f.writeFailure == nil ? 1 : 0))
        storeDiskBytes.record(Int64(store?.diskBytes ?? 0))
        storePages.record(Int64(store?.estimatedPages ?? 0))
        storeUnflushed.record(Int64(book.unflushed))
        let caughtUp = status.caughtUpAfter
        catchUpSeconds.record(caughtUp.seconds)
        catchUpMessages.record(Int64(caughtUp.messages))
        return exposition.render()
    }
}
