public import CoreMetrics
import Metrics
import LayoutDiff

/// The service's counters and gauges, made from an injected metrics factory.
public final class WorkerMetrics: Sendable {
    let factory: any MetricsFactory
    let consumed: Counter
    let published: Counter
    let skipped: Counter
    let inFlight: Gauge
    let inFlightBytes: Gauge
    let compileLatency: Timer

    public init(factory: any MetricsFactory) {
        self.factory = factory
        consumed = Counter(label: "layout_worker_consumed_total", factory: factory)
        published = Counter(label: "layout_worker_published_total", factory: factory)
        skipped = Counter(label: "layout_worker_skipped_total", factory: factory)
        inFlight = Gauge(label: "layout_worker_in_flight", factory: factory)
        inFlightBytes = Gauge(label: "layout_worker_in_flight_bytes", factory: factory)
        compileLatency = Timer(label: "layout_worker_compile_seconds", dimensions: [], preferredDisplayUnit: .seconds, factory: factory)
    }

    func deadLettered(code: String) {
        Counter(label: "layout_worker_dead_lettered_total", dimensions: [("code", code)], factory: factory).increment()
    }

    func diagnostic(code: String, count: Int) {
        Counter(label: "layout_worker_diagnostics_total", dimensions: [("code", code)], factory: factory).increment(by: count)
    }

    func changeSet(_ summary: ChangeSummary) {
        Counter(label: "layout_worker_change_sets_total", factory: factory).increment()
        if summary.replacedLists > 0 || summary.replacedRecord {
            Counter(label: "layout_worker_change_set_full_replaces_total", factory: factory).increment(by: summary.replacedLists + (summary.replacedRecord ? 1 : 0))
        }
    }

    func changeSetSkipped() {
        Counter(label: "layout_worker_change_sets_skipped_total", dimensions: [("reason", "no-page-key")], factory: factory).increment()
    }

    func store(bytes: Int, layouts: Int, evictions: Int) {
        Gauge(label: "layout_worker_state_store_bytes", factory: factory).record(bytes)
        Gauge(label: "layout_worker_state_store_layouts", factory: factory).record(layouts)
        Gauge(label: "layout_worker_state_store_evictions", factory: factory).record(evictions)
    }

    func stateRebuilt(seconds: Double) {
        Timer(label: "layout_worker_state_rebuild_seconds", dimensions: [], preferredDisplayUnit: .seconds, factory: factory)
            .recordNanoseconds(Int64(seconds * 1e9))
    }

    func retried(parts: Int) {
        Counter(label: "layout_worker_produce_retries_total", factory: factory).increment(by: parts)
    }

    func outputBlocked(seconds: Double) {
        Counter(label: "layout_worker_output_blocked_seconds_total", factory: factory).increment(by: Int(seconds.rounded()))
    }

    func outputBlocked(_ blocked: Bool) {
        Gauge(label: "layout_worker_output_blocked", factory: factory).record(blocked ? 1 : 0)
    }

    func inFlight(messages: Int, bytes: Int) {
        inFlight.record(messages)
        inFlightBytes.record(bytes)
    }

    func producerReplaced() {
        Counter(label: "layout_worker_producer_replacements_total", factory: factory).increment()
    }

    func lag(topic: String, partition: Int32, value: Int64) {
        Gauge(label: "layout_worker_partition_lag", dimensions: [("topic", topic), ("partition", String(partition))], factory: factory).record(value)
    }
}
