public import Kafka

/// Everything `layout-worker gateway` needs.
public struct GatewaySettings: Sendable {
    public var kafka: KafkaConfiguration
    /// The compacted latest-layout topic `serve --changes-topic` writes (`--latest-layout-topic`).
    public var latestLayoutTopic: String
    /// The change-set topic.
    public var changesTopic: String
    public var host = "127.0.0.1"
    public var port = defaultPort
    public static let defaultPort = 8090
    /// Bytes of records and change sets held in memory; beyond it the least recently read pages are let go (and read
    /// from the page store when asked for again).
    public var maxBytes = defaultMaxBytes
    public static let defaultMaxBytes = 256 * 1024 * 1024
    /// The page store's directory (every page's record and recent change sets on disk, with the topics'
    /// checkpoints); nil: memory only, pages past `maxBytes` let go.
    public var pageStoreDirectory: String?
    /// Seconds between heartbeats on an idle stream (a comment line, so proxies keep it open).
    public var heartbeatSeconds = 15
    /// Streams followed at once; past it a new one is answered 503 with `Retry-After`. nil: as many as the file
    /// descriptors and memory allow (`StreamLimits`); a number is capped by them too.
    public var maxStreams: Int?
    /// Where the ops endpoints listen (`/healthz`, `/readyz`, `/metrics`, the live page); nil: nowhere.
    public var opsHost: String? = "127.0.0.1"
    public var opsPort = defaultOpsPort
    public static let defaultOpsPort = 8091
    /// Origins whose pages may read the API (`Access-Control-Allow-Origin`); `*` for any.
    public var corsOrigins: [String] = []
    /// Seconds a connection may take to send a whole request (and a kept-alive one may stay idle).
    public var requestTimeoutSeconds = 30
    /// Longest page key taken, in bytes after URL-decoding.
    public var maxKeyBytes = 1_024
    /// How long a newer latest layout waits for the change set that leads to it before streams are sent the record.
    public var changeSetGraceMs = 1_000

    /// Navigation states no published page holds, fetched from an origin and compiled on request (`--origin`);
    /// nil: only published pages are answered.
    public var origin: OriginSettings?
    /// Where `POST /v1/compile` (a response in, its record out) is served: nowhere (the default), the ops port, or
    /// the API port too (`--compile-endpoint`).
    public var compileEndpoint = CompileEndpoint.off
    /// The most bytes `POST /v1/compile` takes (the origin's response limit when there is one).
    public var maxCompileBytes = 8 * 1024 * 1024

    public enum CompileEndpoint: String, Sendable, CaseIterable { case off, ops, api }

    public init(kafka: KafkaConfiguration, latestLayoutTopic: String, changesTopic: String) {
        self.kafka = kafka
        self.latestLayoutTopic = latestLayoutTopic
        self.changesTopic = changesTopic
    }
}
