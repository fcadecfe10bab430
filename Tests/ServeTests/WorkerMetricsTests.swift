import Foundation
import Ops
import Prometheus
import Testing

@testable import Serve

/// `/metrics` says what the worker owns now: a revoked partition's per-partition series go.
@Suite struct WorkerMetricsTests {
    @Test func aPartitionNoLongerOwnedLeavesNoSeriesBehind() {
        let registry = PrometheusCollectorRegistry()
        let metrics = WorkerMetrics(factory: MetricCatalog.factory(on: registry))
        for p: Int32 in [0, 3] {
            metrics.lag(topic: "in", partition: p, messages: 7, seconds: 1.5)
            metrics.uncommitted(topic: "in", partition: p, messages: 2, seconds: 0.5)
        }
        func text() -> String { String(decoding: registry.emitToBuffer(), as: UTF8.self) }
        #expect(text().contains(#"layout_worker_partition_lag{topic="in",partition="3"} 7"#), "\(text())")
        metrics.partitionGone(topic: "in", partition: 3)
        let after = text()
        #expect(!after.contains(#"partition="3""#), "\(after)")
        #expect(after.contains(#"layout_worker_partition_lag{topic="in",partition="0"} 7"#), "\(after)")
        // Owned again later: the series come back.
        metrics.lag(topic: "in", partition: 3, messages: 1, seconds: 0)
        #expect(text().contains(#"layout_worker_partition_lag{topic="in",partition="3"} 1"#))
    }
}
