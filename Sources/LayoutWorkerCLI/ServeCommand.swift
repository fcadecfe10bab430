import ArgumentParser
import Foundation
import Kafka
import LayoutCompiler
import LayoutService
import Logging
import Mapping
import Metrics
import Ops
import Prometheus
import ServiceLifecycle
import Tracing
import Yams

/// `layout-worker serve`: the consumer-group service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Consume assembler responses, publish layout records, dead-letter bad input (at-least-once).",
        discussion: """
            Every option can also come from the environment (LAYOUT_WORKER_<NAME>, e.g. LAYOUT_WORKER_BROKERS) or from \
            a YAML settings file (--settings, keys named like the options); flags win over the environment, which wins \
            over the file. List options take comma-separated values in the environment and the file.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Input topic (repeatable; a name starting with ^ is a regex).") var input: [String] = []
    @Option(help: "Output topic for layout records.") var output: String?
    @Option(name: .customLong("dead-letter"), help: "Dead-letter topic.") var deadLetter: String?
    @Option(help: "Consumer group id.") var group: String?
    @Option(help: "Mapping config (YAML); SIGHUP loads it again.") var config: String?
    @Option(
        name: .customLong("config-watch-seconds"), parsing: .unconditional,
        help: "Also load the config again when the file changes, looking every this many seconds (default 0: off)."
    ) var configWatchSeconds: Int?
    @Option(help: "Tombstones: forward (default) or skip.") var tombstones: String?
    @Option(
        name: .customLong("max-message-bytes"), parsing: .unconditional,
        help: "Larger inputs are dead-lettered (default 8388608).")
    var maxMessageBytes: Int?
    @Option(
        name: .customLong("max-in-flight"), parsing: .unconditional,
        help: "Pause fetching above this many unacknowledged messages (default 2000).") var maxInFlight: Int?
    @Option(
        name: .customLong("max-in-flight-bytes"), parsing: .unconditional,
        help: "Pause fetching above this many input + output bytes unacknowledged (default 33554432).")
    var maxInFlightBytes: Int?
    @Option(
        name: .customLong("crash-state-dir"),
        help:
            "Directory for the crash-loop breaker's state; must outlive the process ('off' disables; default $TMPDIR/layout-worker)."
    ) var crashStateDir: String?
    @Option(
        name: .customLong("batch-size"), parsing: .unconditional, help: "Messages compiled per batch (default 256).")
    var batchSize: Int?
    @Option(
        name: .customLong("shutdown-timeout-ms"), parsing: .unconditional,
        help: "Bound for draining and leaving on SIGTERM/SIGINT (default 20000).") var shutdownTimeoutMs: Int?
    @Option(
        name: .customLong("producer-stall-ms"), parsing: .unconditional,
        help: "Replace a producer that acknowledges nothing for this long while messages wait (default 10000).")
    var producerStallMs: Int?
    @Option(
        help:
            "Ops endpoints /metrics, /healthz, /readyz on host:port, [ipv6]:port or name:port (default 127.0.0.1:9464; 'off' disables)."
    ) var http: String?
    @Option(
        name: .customLong("liveness-stall-seconds"), parsing: .unconditional,
        help: "/healthz fails when the worker loop stands still this long (default 90).") var livenessStallSeconds: Int?
    @Option(name: .customLong("consumer-property"), help: "librdkafka consumer property key=value (repeatable).")
    var consumerProperty: [String] = []
    @Option(name: .customLong("producer-property"), help: "librdkafka producer property key=value (repeatable).")
    var producerProperty: [String] = []
    @Option(
        name: .customLong("changes-topic"),
        help: "Also publish a change set per message against the page's previous layout.") var changesTopic: String?
    @Option(
        name: .customLong("state-topic"),
        help: "Compacted latest-layout topic, partitioned like the input (default <changes-topic>.latest).")
    var stateTopic: String?
    @Option(
        name: .customLong("page-key"),
        help: "Page key for change sets: message-key (default) or response (content path + canonical navigation state)."
    ) var pageKey: String?
    @Option(
        name: .customLong("state-max-bytes"), parsing: .unconditional,
        help: "Budget of the in-memory latest-layout store (default 268435456).")
    var stateMaxBytes: Int?
    @Option(
        name: .customLong("stop-after"), parsing: .unconditional,
        help: "Exit after this many messages are accounted for (demos, tests).")
    var stopAfter: Int?
    @Flag(name: .customLong("pass-through"), help: .hidden) var passThrough = false

    func run() async throws {
        var resolved = try connection.resolve()
        let sources = resolved.sources
        let consumerProperties = try sources.properties(consumerProperty, "consumer-property")
        let producerProperties = try sources.properties(producerProperty, "producer-property")
        let logger = resolved.hide(
            consumerProperties.filter { KafkaConfiguration.isSecret($0.key) }.map(\.value)
                + producerProperties.filter { KafkaConfiguration.isSecret($0.key) }.map(\.value))
        var serve = try serveSettings(sources, kafka: resolved.kafka)
        serve.consumerProperties = consumerProperties
        serve.producerProperties = producerProperties
        serve.changes = try changeSettings(sources)

        let configPath = try sources.value(config, "config") ?? DefaultMappingConfig.path()
        let watchSeconds = try sources.int(configWatchSeconds, "config-watch-seconds", atLeast: 0) ?? 0
        let checked = try loadCheckedConfigOrExit(configPath)
        let compilers = CompilerSlot(
            LayoutCompiler(config: checked.config, maxInputBytes: serve.maxMessageBytes), configHash: checked.hash)
        let registry = PrometheusCollectorRegistry()
        let metrics = WorkerMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let status = WorkerStatus(
            stallLimitSeconds: try sources.int(livenessStallSeconds, "liveness-stall-seconds", atLeast: 1) ?? 90)
        metrics.config(hash: checked.hash)
        checked.logWarnings(logger)
        logger.info("config", metadata: ["path": .string(configPath), "config": .string(checked.hash)])
        logger.info(
            "kafka settings",
            metadata: [
                "properties": .string(
                    serve.kafka.redactedProperties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                        separator: " "))
            ])

        // Spans go to the tracer a program embedding this command bootstrapped (none in `layout-worker` itself).
        let tracer = MessageTracer(tracer: InstrumentationSystem.tracer, group: serve.groupID)
        let worker = WorkerService(
            settings: serve, compilers: compilers, status: status, metrics: metrics, tracer: tracer, logger: logger)
        // A worker that fails shuts the others down gracefully (a cancelled ops server would log its cancellation
        // as an error ahead of the real one).
        var services = [
            ServiceGroupConfiguration.ServiceConfiguration(
                service: worker, successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "layout-worker"),
            .init(
                service: ConfigReloader(
                    path: configPath, slot: compilers, maxInputBytes: serve.maxMessageBytes, metrics: metrics,
                    logger: logger, watchInterval: watchSeconds > 0 ? .seconds(watchSeconds) : nil)),
        ]
        if let ops = try opsService(sources, registry: registry, status: status, logger: logger) {
            services.append(ops)
        }
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// Topics, group and limits from the flags, the environment and the settings file.
    private func serveSettings(_ sources: SettingsSources, kafka: KafkaConfiguration) throws -> ServeSettings {
        let inputs = sources.list(input, "input")
        guard !inputs.isEmpty else { throw ValidationError("no input topic: pass --input or set LAYOUT_WORKER_INPUT") }
        for pattern in inputs where pattern.hasPrefix("^") {
            if let problem = SettingValidation.regexProblem(pattern) {
                throw ValidationError("input '\(pattern)' is not a valid regular expression (\(problem))")
            }
        }
        guard let outputTopic = sources.value(output, "output") else {
            throw ValidationError("no output topic: pass --output or set LAYOUT_WORKER_OUTPUT")
        }
        var serve = ServeSettings(
            kafka: kafka, inputTopics: inputs, outputTopic: outputTopic,
            deadLetterTopic: sources.value(deadLetter, "dead-letter") ?? outputTopic + ".dead-letters",
            groupID: sources.value(group, "group") ?? "layout-worker")
        if let t = sources.value(tombstones, "tombstones") {
            guard let policy = ServeSettings.TombstonePolicy(rawValue: t) else {
                throw ValidationError("tombstones must be forward or skip")
            }
            serve.tombstones = policy
        }
        if let n = try sources.int(maxMessageBytes, "max-message-bytes", atLeast: 1) { serve.maxMessageBytes = n }
        if let n = try sources.int(maxInFlight, "max-in-flight", atLeast: 1) { serve.maxInFlight = n }
        if let n = try sources.int(maxInFlightBytes, "max-in-flight-bytes", atLeast: 1) { serve.maxInFlightBytes = n }
        if let n = try sources.int(batchSize, "batch-size", atLeast: 1) { serve.batchSize = n }
        if let n = try sources.int(shutdownTimeoutMs, "shutdown-timeout-ms", atLeast: 100) {
            serve.shutdownTimeoutMs = n
        }
        if let n = try sources.int(producerStallMs, "producer-stall-ms", atLeast: 1_000) { serve.producerStallMs = n }
        serve.stopAfter = try sources.int(stopAfter, "stop-after", atLeast: 1)
        let crashDir =
            sources.value(crashStateDir, "crash-state-dir")
            ?? (sources.environment["TMPDIR"].map { $0 + "/layout-worker" } ?? "/tmp/layout-worker")
        serve.crashStateDirectory = crashDir == "off" ? nil : crashDir
        #if DEBUG
        serve.debugCrashKey = sources.value(nil, "debug-crash-key")
        #endif
        serve.passThrough = passThrough
        return serve
    }

    /// Change sets and latest layouts (nil without `--changes-topic`).
    private func changeSettings(_ sources: SettingsSources) throws -> ChangeSettings? {
        guard let topic = sources.value(changesTopic, "changes-topic") else { return nil }
        var changes = ChangeSettings(
            changesTopic: topic, stateTopic: sources.value(stateTopic, "state-topic") ?? topic + ".latest")
        if let k = sources.value(pageKey, "page-key") {
            guard let source = ChangeSettings.PageKeySource(rawValue: k) else {
                throw ValidationError("page-key must be message-key or response")
            }
            changes.pageKey = source
        }
        if let n = try sources.int(stateMaxBytes, "state-max-bytes") { changes.storeMaxBytes = max(1, n) }
        return changes
    }

    /// The ops endpoints as a service that stops with the worker (nil with `--http off`); an address that cannot be
    /// listened on is refused before anything starts.
    private func opsService(
        _ sources: SettingsSources, registry: PrometheusCollectorRegistry, status: WorkerStatus, logger: Logger
    ) throws -> ServiceGroupConfiguration.ServiceConfiguration? {
        let httpAddress = sources.value(http, "http") ?? "127.0.0.1:9464"
        guard httpAddress != "off" else { return nil }
        guard let address = OpsAddress(parsing: httpAddress) else {
            throw ValidationError("http must be host:port, [ipv6]:port or off, not '\(httpAddress)'")
        }
        if let problem = address.bindProblem() {
            throw ValidationError("http \(address): cannot listen there (\(problem)); choose another address or 'off'")
        }
        let exposition = MetricsExposition(
            registry: registry,
            build: [
                ("version", WorkerVersion.current), ("librdkafka", Librdkafka.version), ("swift", WorkerVersion.swift),
            ])
        let ops = OpsServer.application(address: address, exposition: exposition, status: status, logger: logger)
        // Their failing to bind stops everything.
        return .init(
            service: ops, successTerminationBehavior: .gracefullyShutdownGroup,
            failureTerminationBehavior: .gracefullyShutdownGroup)
    }
}
