/// Every metric family the worker exports: its one name, type and help text. Code records through these entries,
/// `/metrics` prints their help, and the alert rules and dashboard in `deploy/` are checked against them.
public struct MetricFamily: Sendable, Hashable {
    public enum Kind: String, Sendable { case counter, gauge, histogram }

    public let name: String
    public let kind: Kind
    public let help: String
    /// A histogram's bucket bounds (nil: the metrics factory's default buckets).
    public let buckets: [Duration]?

    init(_ name: String, _ kind: Kind, _ help: String, buckets: [Duration]? = nil) {
        self.name = name
        self.kind = kind
        self.help = help
        self.buckets = buckets
    }
}
