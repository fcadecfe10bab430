import Delivery
import Gateway
import Logging
import Ops
import PageState
import Serve

/// Every setting of every command, once: name (flag, file key, environment variable), which commands read it, its
/// default and its parser. Options take their name and help from here; `SettingsSources` refuses any name that is
/// not here; `SettingTableTests` checks each command's options against it and `docs/operating.md` lists it whole.
enum SettingTable {
    private static let limits = DeliveryLimits()
    private static let limitsUsers: Set<SettingCommand> = [.serve, .replay]

    // Connection and logs: every Kafka command.
    static let settingsFile = Setting<String?>(
        "settings", SettingCommand.kafka, "YAML settings file, keys named like the options")
    static let defaultBrokers = "127.0.0.1:9092"
    static let brokers = Setting<String>(
        "brokers", SettingCommand.kafka, "Bootstrap brokers, host:port[,host:port]", default: defaultBrokers,
        shown: defaultBrokers
    ) { text, name in try SettingValidation.brokers(text, name) }
    static let kafkaProperty = Setting<String?>(
        "kafka-property", SettingCommand.kafka,
        "librdkafka property key=value for every client, e.g. for TLS or SASL (repeatable; also LAYOUT_WORKER_KAFKA_<KEY> per key)"
    )
    static let logFormat = Setting<LogFormat>(
        "log-format", SettingCommand.kafka, "Log format", default: .automatic, shown: "json unless stderr is a terminal"
    )
    /// Unset, each command's own level (`ConnectionOptions.resolve(defaultLevel:)`).
    static let logLevel = Setting<Logger.Level?>(
        "log-level", SettingCommand.kafka, "Log level", choosing: Logger.Level.self,
        shown: "info; warning for replay, tail and offsets")

    // Topics and group.
    static let input = Setting<String?>(
        "input", [.serve, .replay],
        "Input topic of assembler responses (serve: repeatable, and a name starting with ^ is a regex; replay: one name)"
    )
    static let output = Setting<String?>("output", [.serve, .replay], "Output topic for layout records")
    static let deadLetter = Setting<String?>(
        "dead-letter", [.serve, .replay], "Dead-letter topic", shown: DeadLetter.topic(for: "<output topic>"))
    static let defaultGroup = "layout-worker"
    static let group = Setting<String>("group", [.serve, .offsets], "Consumer group id", default: defaultGroup)
    static let config = Setting<String?>(
        "config", [.serve, .replay, .preview, .gateway],
        "Mapping config (YAML), checked as `check` checks it (gateway: what navigation states are compiled with)",
        shown: DefaultMappingConfig.places)
    static let configWatchSeconds = Setting<Int>(
        "config-watch-seconds", [.serve, .gateway],
        "Also load the config again when the file changes, looking this often (0: off)",
        default: 0, atLeast: 0)

    // Limits `serve` and `replay` share (`DeliveryLimits`).
    static let tombstones = Setting<TombstonePolicy>(
        "tombstones", limitsUsers, "What a tombstone input becomes", default: limits.tombstones)
    static let maxMessageBytes = Setting<Int>(
        "max-message-bytes", limitsUsers, "Larger inputs (key + value + headers) are dead-lettered",
        default: limits.maxMessageBytes, atLeast: 1)
    static let maxInFlight = Setting<Int>(
        "max-in-flight", limitsUsers, "Stop reading above this many unacknowledged messages",
        default: limits.maxInFlight, atLeast: 1)
    static let maxInFlightBytes = Setting<Int>(
        "max-in-flight-bytes", limitsUsers, "Stop reading above this many input + output bytes held unacknowledged",
        default: limits.maxInFlightBytes, atLeast: 1)
    static let producerStallMs = Setting<Duration>(
        "producer-stall-ms", limitsUsers,
        "Replace a producer that acknowledges nothing for this long while messages wait",
        default: limits.producerStall, atLeast: .seconds(1))

    // The consumer-group service.
    static let consumerProperty = Setting<String?>(
        "consumer-property", [.serve],
        "librdkafka consumer property key=value (repeatable; also LAYOUT_WORKER_CONSUMER_<KEY> per key)")
    static let producerProperty = Setting<String?>(
        "producer-property", [.serve],
        "librdkafka producer property key=value (repeatable; also LAYOUT_WORKER_PRODUCER_<KEY> per key)")
    static let batchSize = Setting<Int>(
        "batch-size", [.serve], "Messages compiled per batch", default: ServeSettings.defaultBatchSize, atLeast: 1)
    static let shutdownTimeoutMs = Setting<Duration>(
        "shutdown-timeout-ms", [.serve], "Bound for draining and leaving on SIGTERM/SIGINT",
        default: ServeSettings.defaultShutdownTimeout, atLeast: .milliseconds(100))
    static let crashStateDir = Setting<String?>(
        "crash-state-dir", [.serve],
        "Directory for the crash-loop breaker's state; must outlive the process ('off' disables)",
        shown: "$TMPDIR/layout-worker")
    /// Unset, each command's own address: `defaultOpsAddress`, the gateway's `defaultOpsPort`, off for `replay`.
    static let http = Setting<String?>(
        "http", [.serve, .replay, .gateway],
        "Ops endpoints /metrics, /healthz, /readyz (gateway: and the live page) on host:port, [ipv6]:port or name:port ('off' disables)",
        shown: "\(defaultOpsAddress) (serve), 127.0.0.1:\(GatewaySettings.defaultOpsPort) (gateway), off (replay)")
    static let defaultOpsAddress = "127.0.0.1:9464"
    static let livenessStallSeconds = Setting<Int>(
        "liveness-stall-seconds", [.serve], "/healthz fails when the worker loop stands still this long",
        default: Heartbeat.defaultStallLimitSeconds, atLeast: 1)
    static let stopAfter = Setting<Int?>(
        "stop-after", [.serve], "Exit after this many messages are accounted for (demos, tests)", atLeast: 1)
    static let debugCrashKey = Setting<String?>(
        "debug-crash-key", [.serve], "Debug builds only: die while compiling a message with this key"
    ).withoutFlag()

    // Change sets and latest layouts.
    static let changesTopic = Setting<String?>(
        "changes-topic", [.serve, .gateway],
        "serve: also publish a change set per message against the page's previous layout; gateway: stream these")
    static let latestLayoutTopic = Setting<String?>(
        "latest-layout-topic", [.serve, .gateway],
        "Compacted topic of every page's latest layout (serve writes it, with as many partitions as its input; gateway reads it)",
        shown: "<changes-topic>.latest")
    /// `--latest-layout-topic`'s default: the change-set topic's name with `.latest`.
    static func latestLayoutTopic(defaultFor changesTopic: String) -> String { changesTopic + ".latest" }
    static let pageKey = Setting<ChangeSettings.PageKeySource>(
        "page-key", [.serve], "Page key for change sets", default: .messageKey)
    /// The worker's and the gateway's (the same default: `ChangeSettings.defaultStoreMaxBytes`,
    /// `GatewaySettings.defaultMaxBytes`).
    static let pageCacheBytes = Setting<Int>(
        "page-cache-bytes", [.serve, .gateway],
        "Memory for pages (latest layouts, and the gateway's recent change sets) in front of the page store, in bytes; past it the least recently read pages are read from the page store",
        default: ChangeSettings.defaultStoreMaxBytes, atLeast: 1)
    static let pageStore = Setting<String?>(
        "page-store", [.serve, .gateway],
        "Page store directory: every page's latest layout, position and change sets on disk, read back from its checkpoints on start ('off': memory only)",
        shown: "\(defaultPageStoreRoot)/<serve-GROUP | gateway-TOPIC>")
    /// Kept as it was when the flag was `--state-dir`: a store found where the last release put it is reopened.
    static let defaultPageStoreRoot = "layout-worker-state"

    // HTTP servers of the preview and the gateway.
    static let host = Setting<String>(
        "host", [.preview, .gateway], "Address to listen on (0.0.0.0 for every interface)", default: "127.0.0.1")
    /// Unset, each command's own port: `defaultPreviewPort`, the gateway's `defaultPort`.
    static let port = Setting<Int?>(
        "port", [.preview, .gateway],
        "Port to listen on (preview \(defaultPreviewPort), gateway \(GatewaySettings.defaultPort)); 0 picks a free one",
        atLeast: 0, atMost: 65535)
    static let defaultPreviewPort = 8088
    static let maxStreams = Setting<Int?>(
        "max-streams", [.gateway],
        "Event streams followed at once; past it new ones are answered 503 with Retry-After (default: as many as the descriptor limit and memory allow, logged at start)",
        atLeast: 1)
    static let corsOrigin = Setting<String?>(
        "cors-origin", [.gateway],
        "Origin whose pages may read the API, e.g. https://shop.example.com, or * for any (comma-separated; preflights answered)"
    )
    // Navigation states from the origin (`gateway --origin`) and `POST /v1/compile`.
    static let origin = Setting<String?>(
        "origin", [.gateway],
        "Base URL (http://host:port[/prefix]) a navigation state no published page holds is fetched from, as base + state, and compiled with --config"
    )
    private static let originDefaults = OriginSettings(base: try! OriginURL(parsing: "http://127.0.0.1"))
    static let originTimeoutMs = Setting<Int>(
        "origin-timeout-ms", [.gateway],
        "Connecting to the origin and reading its whole response may each take this long",
        default: originDefaults.timeoutMs, atLeast: 1)
    static let originMaxResponseBytes = Setting<Int>(
        "origin-max-response-bytes", [.gateway],
        "A larger response from the origin is refused (502); also the most POST /v1/compile takes",
        default: originDefaults.maxResponseBytes, atLeast: 1)
    static let originConcurrency = Setting<Int>(
        "origin-concurrency", [.gateway],
        "Origin requests under way at once; past it a state's GET is answered 503 with Retry-After",
        default: originDefaults.concurrency, atLeast: 1)
    static let originPaths = Setting<String?>(
        "origin-paths", [.gateway],
        "Path prefixes a navigation state must start with, comma-separated (e.g. /browse,/search)",
        shown: "any path")
    static let originMaxBytes = Setting<Int>(
        "origin-max-bytes", [.gateway], "Bytes of navigation states held in memory; past it the least recently read go",
        default: originDefaults.maxBytes, atLeast: 1)
    static let originMaxAge = Setting<Int>(
        "origin-max-age", [.gateway],
        "Seconds a fetched state is answered without asking the origin (Cache-Control max-age)",
        default: originDefaults.maxAgeSeconds, atLeast: 0)
    static let originStaleWhileRevalidate = Setting<Int>(
        "origin-stale-while-revalidate", [.gateway],
        "Seconds past max-age a state is answered while fetched again behind the answer",
        default: originDefaults.staleWhileRevalidateSeconds, atLeast: 0)
    static let originStaleIfError = Setting<Int>(
        "origin-stale-if-error", [.gateway], "Seconds past max-age a state is answered when the origin fails",
        default: originDefaults.staleIfErrorSeconds, atLeast: 0)
    static let originRefresh = Setting<Int>(
        "origin-refresh", [.gateway], "Seconds between fetches of a navigation state while streams follow it",
        default: originDefaults.refreshSeconds, atLeast: 1)
    static let compileEndpoint = Setting<GatewaySettings.CompileEndpoint>(
        "compile-endpoint", [.gateway],
        "Where POST /v1/compile (a response in, its record out; for backends that fetch the Assembler) is served",
        default: .off)

    /// The whole table, in the order `docs/operating.md` lists it.
    static let all: [any SettingEntry] = [
        settingsFile, brokers, kafkaProperty, logFormat, logLevel,
        input, output, deadLetter, group, config, configWatchSeconds,
        tombstones, maxMessageBytes, maxInFlight, maxInFlightBytes, producerStallMs,
        consumerProperty, producerProperty, batchSize, shutdownTimeoutMs, crashStateDir, http, livenessStallSeconds,
        stopAfter, debugCrashKey,
        changesTopic, latestLayoutTopic, pageKey, pageCacheBytes, pageStore,
        host, port, maxStreams, corsOrigin,
        origin, originTimeoutMs, originMaxResponseBytes, originConcurrency, originPaths, originMaxBytes, originMaxAge,
        originStaleWhileRevalidate, originStaleIfError, originRefresh, compileEndpoint,
    ]

    /// Names settings had before, each with its name now: still read as flags, file keys and variables, with a
    /// warning (`FormerNames`).
    static let renamed = [
        "latest-topic": latestLayoutTopic.name, "state-topic": latestLayoutTopic.name, "state-dir": pageStore.name,
        "state-max-bytes": pageCacheBytes.name, "max-held-bytes": pageCacheBytes.name,
    ]

    /// Every name a settings file or `LAYOUT_WORKER_*` variable may use.
    static let names = Set(all.map(\.name))

    /// Settings holding librdkafka properties, each with its per-property variable prefix.
    static let propertySettings = [
        kafkaProperty.name: "KAFKA_", consumerProperty.name: "CONSUMER_", producerProperty.name: "PRODUCER_",
    ]
}
