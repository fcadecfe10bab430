public import CoreMetrics
import Delivery
import Ops

/// A replay's counters (`replay --http`), made from an injected metrics factory; names from `MetricCatalog`.
public final class ReplayMetrics: Sendable {
    let read: Counter
    let remaining: Gauge
    let published: Counter
    let tombstoned: Counter
    let skipped: Counter
    let deadLettered: Counter

    public init(factory: any MetricsFactory) {
        func settled(_ result: String) -> Counter {
            let c = Counter(label: MetricCatalog.replaySettled.name, dimensions: [("result", result)], factory: factory)
            c.increment(by: 0)  // shown from the first scrape
            return c
        }
        read = Counter(label: MetricCatalog.replayRead.name, factory: factory)
        read.increment(by: 0)
        remaining = Gauge(label: MetricCatalog.replayRemaining.name, factory: factory)
        published = settled("published")
        tombstoned = settled("tombstoned")
        skipped = settled("skipped")
        deadLettered = settled("dead-lettered")
    }

    /// Counts a message by how it ended (or, in a dry run, would end).
    func settled(_ settlement: DeliveryEngine.Settlement) {
        switch settlement {
        case .published: published.increment()
        case .tombstoned: tombstoned.increment()
        case .skipped: skipped.increment()
        case .deadLettered: deadLettered.increment()
        }
    }
}
