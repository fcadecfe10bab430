import ArgumentParser
import ConfigReload
import Delivery
import Foundation
import Kafka
import LayoutCompiler
import Logging
import Mapping
import Metrics
import Ops
import PageState
import Prometheus
import Serve
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
    @OptionGroup var limits: LimitOptions
    @Option(SettingTable.input)
    var input: [String] = []
    @Option(SettingTable.output)
    var output: String?
    @Option(SettingTable.deadLetter)
    var deadLetter: String?
    @Option(SettingTable.group)
    var group: String?
    @Option(SettingTable.config)
    var config: String?
    @Option(SettingTable.configWatchSeconds)
    var configWatchSeconds: String?
    @Option(SettingTable.crashStateDir)
    var crashStateDir: String?
    @Option(SettingTable.batchSize)
    var batchSize: String?
    @Option(SettingTable.shutdownTimeoutMs)
    var shutdownTimeoutMs: String?
    @Option(SettingTable.http)
    var http: String?
    @Option(SettingTable.livenessStallSeconds)
    var livenessStallSeconds: String?
    @Option(SettingTable.consumerProperty)
    var consumerProperty: [String] = []
    @Option(SettingTable.producerProperty)
    var producerProperty: [String] = []
    @Option(SettingTable.changesTopic)
    var changesTopic: String?
    @Option(SettingTable.latestLayoutTopic)
    var latestLayoutTopic: String?
    @Option(SettingTable.pageKey)
    var pageKey: String?
    @Option(SettingTable.pageCacheBytes)
    var pageCacheBytes: String?
    @Option(SettingTable.pageStore) var pageStore: String?
    @Option(SettingTable.stopAfter)
    var stopAfter: String?
    @Flag(name: .customLong("pass-through"), help: .hidden) var passThrough = false

    func run() async throws {
        var resolved = try connection.resolve()
        let sources = resolved.sources
        let consumerProperties = try sources.properties(SettingTable.consumerProperty, consumerProperty)
        let producerProperties = try sources.properties(SettingTable.producerProperty, producerProperty)
        let logger = resolved.hide(
            consumerProperties.filter { KafkaConfiguration.isSecret($0.key) }.map(\.value)
                + producerProperties.filter { KafkaConfiguration.isSecret($0.key) }.map(\.value))
        var serve = try serveSettings(sources, kafka: resolved.kafka)
        serve.consumerProperties = consumerProperties
        serve.producerProperties = producerProperties
        serve.changes = try changeSettings(sources)
        try SettingValidation.noLoop(
            inputs: serve.inputTopics,
            writes: [("--output", serve.outputTopic), ("--dead-letter", serve.deadLetterTopic)]
                + (serve.changes.map {
                    [("--changes-topic", $0.changesTopic), ("--latest-layout-topic", $0.latestLayoutTopic)]
                } ?? []), command: "serve")
        // The page store's directory is this process's alone, from before it joins the group to its exit.
        let storeLock = try serve.changes?.pageStoreDirectory.map(PageStoreOwner.take)
        defer { withExtendedLifetime(storeLock) {} }

        let configPath = try sources.read(SettingTable.config, config) ?? DefaultMappingConfig.path()
        let watchSeconds = try sources.read(SettingTable.configWatchSeconds, configWatchSeconds)
        let checked = try loadCheckedConfigOrExit(configPath)
        let compilers = CompilerSlot(
            LayoutCompiler(config: checked.config, maxInputBytes: serve.limits.maxMessageBytes),
            configHash: checked.hash)
        let registry = PrometheusCollectorRegistry()
        let metrics = WorkerMetrics(factory: MetricCatalog.factory(on: registry))
        let status = WorkerStatus(
            stallLimitSeconds: try sources.read(SettingTable.livenessStallSeconds, livenessStallSeconds))
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
                    path: configPath, slot: compilers, maxInputBytes: serve.limits.maxMessageBytes, metrics: metrics,
                    logger: logger, watchInterval: watchSeconds > 0 ? .seconds(watchSeconds) : nil)),
        ]
        if let address = try OpsListener.address(
            try sources.read(SettingTable.http, http) ?? SettingTable.defaultOpsAddress)
        {
            services.append(OpsListener.service(at: address, registry: registry, probes: status, logger: logger))
        }
        if let changes = serve.changes {
            services.append(
                .init(
                    service: CompactionCheck(kafka: serve.kafka, topic: changes.latestLayoutTopic, logger: logger),
                    successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore))
        }
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// Topics, group and limits from the flags, the environment and the settings file.
    private func serveSettings(_ sources: SettingsSources, kafka: KafkaConfiguration) throws -> ServeSettings {
        let inputs = sources.list(SettingTable.input, input)
        guard !inputs.isEmpty else { throw ValidationError("no input topic: pass --input or set LAYOUT_WORKER_INPUT") }
        for pattern in inputs where pattern.hasPrefix("^") {
            if let problem = SettingValidation.regexProblem(pattern) {
                throw ValidationError("input '\(pattern)' is not a valid regular expression (\(problem))")
            }
        }
        guard let outputTopic = try sources.read(SettingTable.output, output) else {
            throw ValidationError("no output topic: pass --output or set LAYOUT_WORKER_OUTPUT")
        }
        var serve = ServeSettings(
            kafka: kafka, inputTopics: inputs, outputTopic: outputTopic,
            deadLetterTopic: try sources.read(SettingTable.deadLetter, deadLetter)
                ?? DeadLetter.topic(for: outputTopic),
            groupID: try sources.read(SettingTable.group, group))
        serve.limits = try limits.resolve(sources)
        serve.batchSize = try sources.read(SettingTable.batchSize, batchSize)
        serve.shutdownTimeout = try sources.read(SettingTable.shutdownTimeoutMs, shutdownTimeoutMs)
        serve.stopAfter = try sources.read(SettingTable.stopAfter, stopAfter)
        let crashDir =
            try sources.read(SettingTable.crashStateDir, crashStateDir)
            ?? (sources.environment["TMPDIR"].map { $0 + "/layout-worker" } ?? "/tmp/layout-worker")
        serve.crashStateDirectory = SettingValidation.unlessOff(crashDir)
        #if DEBUG
        serve.debugCrashKey = try sources.read(SettingTable.debugCrashKey)
        #endif
        serve.passThrough = passThrough
        return serve
    }

    /// Change sets and latest layouts (nil without `--changes-topic`).
    private func changeSettings(_ sources: SettingsSources) throws -> ChangeSettings? {
        guard let topic = try sources.read(SettingTable.changesTopic, changesTopic) else { return nil }
        var changes = ChangeSettings(
            changesTopic: topic,
            latestLayoutTopic: try sources.read(SettingTable.latestLayoutTopic, latestLayoutTopic)
                ?? SettingTable.latestLayoutTopic(defaultFor: topic))
        changes.pageKey = try sources.read(SettingTable.pageKey, pageKey)
        changes.storeMaxBytes = try sources.read(SettingTable.pageCacheBytes, pageCacheBytes)
        let group = try sources.read(SettingTable.group, group)
        changes.group = group
        let dir =
            try sources.read(SettingTable.pageStore, pageStore) ?? SettingTable.defaultPageStoreRoot + "/serve-" + group
        changes.pageStoreDirectory = SettingValidation.unlessOff(dir)
        return changes
    }
}
