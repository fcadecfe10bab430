/// How `gateway --origin` answers navigation states no published page holds: fetched from the origin (the Assembler's
/// or the storefront's base URL), compiled with the mapping config, cached.
public struct OriginSettings: Sendable {
    /// Where states are fetched: `base` + the state (`http://host:port/prefix`).
    public var base: OriginURL
    /// Connecting and reading the whole response must each take at most this long (`--origin-timeout-ms`).
    public var timeoutMs = 2_000
    /// A response larger than this is refused (`--origin-max-response-bytes`).
    public var maxResponseBytes = 8 * 1024 * 1024
    /// Origin requests under way at once (`--origin-concurrency`); past it a state's GET is answered 503.
    public var concurrency = 64
    /// Path prefixes a state must start with (`--origin-paths /browse,/search`); empty: any path.
    public var paths: [String] = []
    /// Bytes of compiled states held in memory (`--origin-max-bytes`); past it the least recently read go.
    public var maxBytes = 64 * 1024 * 1024
    /// Seconds a fetched state is answered without asking the origin again (`Cache-Control: max-age`).
    public var maxAgeSeconds = 60
    /// Seconds past `maxAgeSeconds` a state is still answered while it is fetched again behind the answer.
    public var staleWhileRevalidateSeconds = 30
    /// Seconds past `maxAgeSeconds` a state is answered when the origin fails.
    public var staleIfErrorSeconds = 300
    /// Seconds between fetches of a state while streams follow it (a change found is sent as a change set).
    public var refreshSeconds = 30
    /// Failures in a row that open the circuit breaker, and how long it stays open.
    public var breakerFailures = 5
    public var breakerCooldownMs = 5_000

    public init(base: OriginURL) { self.base = base }
}
