import ArgumentParser
import ConfigReload
import Delivery
import Foundation
import Gateway
import Kafka
import LayoutCompiler
import Logging
import Ops
import Prometheus
import ServiceLifecycle

/// `layout-worker gateway`: latest layouts over HTTP and change sets as server-sent events, for apps and pages.
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Serve latest layouts over HTTP and stream change sets to apps (server-sent events).",
        discussion: """
            GET /v1/layouts/{key}: a page's latest record (ETag, If-None-Match, gzip). \
            GET /v1/layouts/{key}/changes: server-sent events, the record then every change set (Last-Event-ID \
            resumes). /healthz, /readyz, /metrics and the live page on the ops port (--http). Reads the latest-layout topic from its beginning \
            and the change-set topic from its end, by assignment: no consumer group, so replicas can run side by side.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Option(SettingTable.latestLayoutTopic) var latestLayoutTopic: String?
    @Option(SettingTable.changesTopic)
    var changesTopic: String?
    @Option(SettingTable.host) var host: String?
    @Option(SettingTable.port)
    var port: String?
    @Option(SettingTable.pageCacheBytes) var pageCacheBytes: String?
    @Option(SettingTable.maxStreams)
    var maxStreams: String?
    @Option(SettingTable.pageStore) var pageStore: String?
    @Option(SettingTable.http) var http: String?
    @Option(SettingTable.corsOrigin) var corsOrigin: String?
    @Option(SettingTable.config) var config: String?
    @Option(SettingTable.configWatchSeconds) var configWatchSeconds: String?
    @Option(SettingTable.origin) var origin: String?
    @Option(SettingTable.originTimeoutMs) var originTimeoutMs: String?
    @Option(SettingTable.originMaxResponseBytes) var originMaxResponseBytes: String?
    @Option(SettingTable.originConcurrency) var originConcurrency: String?
    @Option(SettingTable.originPaths) var originPaths: String?
    @Option(SettingTable.originMaxBytes) var originMaxBytes: String?
    @Option(SettingTable.originMaxAge) var originMaxAge: String?
    @Option(SettingTable.originStaleWhileRevalidate) var originStaleWhileRevalidate: String?
    @Option(SettingTable.originStaleIfError) var originStaleIfError: String?
    @Option(SettingTable.originRefresh) var originRefresh: String?
    @Option(SettingTable.compileEndpoint) var compileEndpoint: String?

    func run() async throws {
        ProcessAllocator.returnFreedMemory()
        let resolved = try connection.resolve(clientID: "layout-worker-gateway")
        let sources = resolved.sources
        guard let changes = try sources.read(SettingTable.changesTopic, changesTopic) else {
            throw ValidationError("no change-set topic: pass --changes-topic or set LAYOUT_WORKER_CHANGES_TOPIC")
        }
        let latest =
            try sources.read(SettingTable.latestLayoutTopic, latestLayoutTopic)
            ?? SettingTable.latestLayoutTopic(defaultFor: changes)
        var settings = GatewaySettings(kafka: resolved.kafka, latestLayoutTopic: latest, changesTopic: changes)
        settings.host = try sources.read(SettingTable.host, host)
        settings.port = try sources.read(SettingTable.port, port) ?? GatewaySettings.defaultPort
        // The API's address is tried before anything starts, as the ops port's is: a gateway that cannot listen
        // says so and exits (64), rather than reading the topics with nothing to answer on.
        let api = OpsAddress(host: settings.host, port: settings.port)
        if let problem = api.bindProblem() {
            throw ValidationError("port \(api): cannot listen there (\(problem)); choose another --host or --port")
        }
        settings.maxBytes = try sources.read(SettingTable.pageCacheBytes, pageCacheBytes)
        settings.maxStreams = try sources.read(SettingTable.maxStreams, maxStreams)
        if let origins = try sources.read(SettingTable.corsOrigin, corsOrigin) {
            settings.corsOrigins = origins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        let ops = try OpsListener.address(
            try sources.read(SettingTable.http, http) ?? "127.0.0.1:\(GatewaySettings.defaultOpsPort)")
        (settings.opsHost, settings.opsPort) = (ops?.host, ops?.port ?? settings.opsPort)
        let dir =
            try sources.read(SettingTable.pageStore, pageStore) ?? SettingTable.defaultPageStoreRoot + "/gateway-"
            + latest
        settings.pageStoreDirectory = SettingValidation.unlessOff(dir)
        settings.origin = try originSettings(sources)
        settings.compileEndpoint = try sources.read(SettingTable.compileEndpoint, compileEndpoint)
        settings.maxCompileBytes = try sources.read(SettingTable.originMaxResponseBytes, originMaxResponseBytes)
        let configPath = try sources.read(SettingTable.config, config) ?? DefaultMappingConfig.path()
        let compilers = try compilerSlot(settings, configPath, resolved.logger)
        // The page store's directory is this process's alone, from before it reads a topic to its exit.
        let storeLock = try settings.pageStoreDirectory.map(PageStoreOwner.take)
        defer { withExtendedLifetime(storeLock) {} }
        let logger = resolved.logger
        let (host, opsHost) = (settings.host, settings.opsHost)
        let shown: @Sendable (String) -> String = { h in h == "0.0.0.0" ? "127.0.0.1" : h.contains(":") ? "[\(h)]" : h }
        let (services, metrics) = GatewayServer.services(
            settings: settings, registry: PrometheusCollectorRegistry(),
            build: OpsListener.build, logger: logger, compilers: compilers
        ) { bound, limits in
            Output.line(
                "gateway: http://\(shown(host)):\(bound.api)/v1/layouts/{key} (latest \(latest), changes \(changes))")
            if let ops = bound.ops, let opsHost {
                Output.line("gateway ops: http://\(shown(opsHost)):\(ops)/readyz, /metrics, live page /?key=...")
            }
            Output.line("gateway limits: \(limits)")
        }
        // Whichever service ends, or fails (a listener that could not bind after all), the others are stopped
        // gracefully: the topic feed's thread stops on a graceful shutdown, never on a cancellation alone.
        var configured = services.map {
            ServiceGroupConfiguration.ServiceConfiguration(
                service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup)
        }
        if let compilers {
            let watchSeconds = try sources.read(SettingTable.configWatchSeconds, configWatchSeconds)
            metrics.config(hash: compilers.compiler.configHash, previous: nil)
            configured.append(
                .init(
                    service: ConfigReloader(
                        path: configPath, slot: compilers, maxInputBytes: settings.maxCompileBytes, metrics: metrics,
                        logger: logger, watchInterval: watchSeconds > 0 ? .seconds(watchSeconds) : nil)))
        }
        configured.append(
            .init(
                service: CompactionCheck(kafka: resolved.kafka, topic: latest, logger: logger),
                successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore))
        try await ServiceGroup(
            configuration: .init(services: configured, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        ).run()
    }

    /// The compiler of navigation states and `POST /v1/compile`: the config as `serve` loads it (nil when neither
    /// is served).
    private func compilerSlot(_ settings: GatewaySettings, _ path: String, _ logger: Logger) throws -> CompilerSlot? {
        guard settings.origin != nil || settings.compileEndpoint != .off else { return nil }
        let checked = try loadCheckedConfigOrExit(path)
        checked.logWarnings(logger)
        logger.info("config", metadata: ["path": .string(path), "config": .string(checked.hash)])
        return CompilerSlot(
            LayoutCompiler(config: checked.config, maxInputBytes: settings.maxCompileBytes), configHash: checked.hash)
    }

    /// `--origin` and its settings, or nil without `--origin`.
    private func originSettings(_ sources: SettingsSources) throws -> OriginSettings? {
        guard let text = try sources.read(SettingTable.origin, origin) else { return nil }
        let base: OriginURL
        do { base = try OriginURL(parsing: text) } catch { throw ValidationError(error.description) }
        var o = OriginSettings(base: base)
        o.timeoutMs = try sources.read(SettingTable.originTimeoutMs, originTimeoutMs)
        o.maxResponseBytes = try sources.read(SettingTable.originMaxResponseBytes, originMaxResponseBytes)
        o.concurrency = try sources.read(SettingTable.originConcurrency, originConcurrency)
        o.paths = (try sources.read(SettingTable.originPaths, originPaths) ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for path in o.paths where !path.hasPrefix("/") {
            throw ValidationError("--origin-paths: '\(path)' must start with /")
        }
        o.maxBytes = try sources.read(SettingTable.originMaxBytes, originMaxBytes)
        o.maxAgeSeconds = try sources.read(SettingTable.originMaxAge, originMaxAge)
        o.staleWhileRevalidateSeconds = try sources.read(
            SettingTable.originStaleWhileRevalidate, originStaleWhileRevalidate)
        o.staleIfErrorSeconds = try sources.read(SettingTable.originStaleIfError, originStaleIfError)
        o.refreshSeconds = try sources.read(SettingTable.originRefresh, originRefresh)
        return o
    }
}
