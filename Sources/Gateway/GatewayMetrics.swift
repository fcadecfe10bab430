public import ConfigReload
public import CoreMetrics
public import Ops
import Synchronization

/// The gateway's counters, and `/metrics` with the page book's figures read at scrape time.
public final class GatewayMetrics: ConfigReloadMetrics {
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
    private let originRequests: [String: Counter]
    private let originAnswers: [String: Counter]
    private let originTimer: Timer
    let originStates: Gauge
    let originHeldBytes: Gauge
    let originCircuitOpen: Gauge
    private let configReloads: Counter
    private let configReloadFailures: Counter
    private let configInfo: @Sendable (String) -> Gauge
    /// Lookups already counted, so the book's totals become counter increments.
    private let counted = Mutex<(memory: Int, disk: Int)>((0, 0))

    /// Record answers counted on their event loops until `/metrics` is read.
    let tallies: RecordTallies

    /// Records through `factory` (made by `MetricCatalog.factory(on:)` on the registry `exposition` renders); record
    /// answers made on `tallies`' loops are counted there first.
    public init(factory: any MetricsFactory, exposition: MetricsExposition, tallies: RecordTallies = RecordTallies()) {
        self.exposition = exposition
        self.tallies = tallies
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
        originRequests = Dictionary(
            uniqueKeysWithValues: Self.originRequestOutcomes.map {
                ($0, counter(MetricCatalog.gatewayOriginRequests, [("outcome", $0)]))
            })
        originAnswers = Dictionary(
            uniqueKeysWithValues: Self.originAnswerKinds.map {
                ($0, counter(MetricCatalog.gatewayOriginAnswers, [("answer", $0)]))
            })
        originTimer = timer(MetricCatalog.gatewayOriginSeconds)
        originStates = gauge(MetricCatalog.gatewayOriginStates)
        originHeldBytes = gauge(MetricCatalog.gatewayOriginHeldBytes)
        originCircuitOpen = gauge(MetricCatalog.gatewayOriginCircuitOpen)
        configReloads = counter(MetricCatalog.configReloads)
        configReloadFailures = counter(MetricCatalog.configReloadFailures)
        configInfo = { Gauge(label: MetricCatalog.configInfo.name, dimensions: [("config", $0)], factory: factory) }
    }

    static let originRequestOutcomes = [
        "fetched", "not-modified", "not-found", "timeout", "refused", "origin-error", "too-large", "not-compiled",
        "circuit-open", "busy",
    ]
    static let originAnswerKinds = ["cached", "stale", "fetched", "failed", "refused-key"]

    /// One origin request's outcome (a label of `originRequestOutcomes`).
    func originRequest(_ outcome: String) { originRequests[outcome]?.increment() }
    /// How one GET of a state was answered (a label of `originAnswerKinds`).
    func originAnswer(_ kind: String) { originAnswers[kind]?.increment() }
    func originSeconds(_ d: Duration) { originTimer.recordNanoseconds(Int64(max(0, d / .nanoseconds(1)))) }

    public func configReloaded(failed: Bool) { (failed ? configReloadFailures : configReloads).increment() }

    public func config(hash: String, previous: String?) {
        if let previous, previous != hash { configInfo(previous).record(0) }
        configInfo(hash).record(1)
    }

    /// Sets the limit gauges.
    func limits(_ limits: StreamLimits) {
        streamLimit.record(Int64(limits.streams))
        descriptorLimit.record(Int64(limits.descriptors.soft))
    }

    /// A record answered (`notModified`: a 304; `bytes`: the body sent), counted on its loop when it is on one.
    func recordAnswered(notModified isNotModified: Bool, bytes: Int) {
        guard !tallies.count(notModified: isNotModified, bytes: bytes) else { return }
        recordRequests.increment()
        if isNotModified { notModified.increment() }
        if bytes > 0 { bytesSent.increment(by: Int64(bytes)) }
    }

    /// The exposition, with the book's figures, the feed's lag and the record answers counted on the loops, as
    /// of now.
    func render(_ book: PageBook, _ status: GatewayStatus, _ origin: OriginStates? = nil) -> [UInt8] {
        let answered = tallies.drain()
        recordRequests.increment(by: Int64(answered.requests))
        notModified.increment(by: Int64(answered.notModified))
        bytesSent.increment(by: Int64(answered.bytes))
        if let origin {
            let held = origin.cache.figures
            originStates.record(Int64(held.states))
            originHeldBytes.record(Int64(held.bytes))
            originCircuitOpen.record(origin.breaker.isOpen ? 1 : 0)
        }
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
