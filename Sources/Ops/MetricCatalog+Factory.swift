public import Prometheus

extension MetricCatalog {
    /// The one metrics factory every command records through (swift-metrics' `Counter`, `Gauge`, `Timer`), writing to
    /// `registry`, whose `/metrics` text `MetricsExposition` renders: each histogram family gets its buckets here.
    public static func factory(on registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        for family in all where family.kind == .histogram {
            if let buckets = family.buckets { factory.durationHistogramBuckets[family.name] = buckets }
        }
        return factory
    }
}
