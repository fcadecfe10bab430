import Foundation

/// How old an input is now, from its Kafka timestamp (ms since the epoch, the producer's clock): what every
/// freshness histogram records (`MetricCatalog.freshness` and the gateway's).
public enum InputAge {
    /// Nanoseconds since `timestampMs`; 0 for a timestamp ahead of this clock.
    public static func nanoseconds(since timestampMs: Int64) -> Int64 {
        max(0, Int64(Date().timeIntervalSince1970 * 1_000) - timestampMs) * 1_000_000
    }
}
