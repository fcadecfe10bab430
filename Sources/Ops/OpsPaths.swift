/// The ops endpoints every long-running command serves, whatever its HTTP server: `/healthz` (liveness), `/readyz`
/// (readiness; both 200 or 503 with the probe's detail) and `/metrics` (Prometheus text). `OpsEndpoints` serves them
/// on a `PlainHTTPServer` (`serve`, `replay`), `GatewayEndpoints` on the gateway's SwiftNIO ops port.
public enum OpsPaths {
    /// An answer: the status code, the content type and the body; never cached (`cache-control: no-store`).
    public struct Answer: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
    }

    public static let paths: Set<String> = ["/metrics", "/healthz", "/readyz"]

    /// The answer for `path`, nil for any other path; `metrics` renders the exposition (only for `/metrics`).
    public static func answer(_ path: String, probes: some Probed, metrics: () -> [UInt8]) -> Answer? {
        switch path {
        case "/metrics":
            return Answer(status: 200, contentType: MetricsExposition.contentType, body: metrics())
        case "/healthz": return text(probes.liveness(), failing: "not alive: ")
        case "/readyz": return text(probes.readiness, failing: "not ready: ")
        default: return nil
        }
    }

    private static func text(_ probe: Probe, failing prefix: String) -> Answer {
        Answer(
            status: probe.passes ? 200 : 503, contentType: "text/plain; charset=utf-8",
            body: Array(((probe.passes ? "" : prefix) + probe.detail + "\n").utf8))
    }
}
