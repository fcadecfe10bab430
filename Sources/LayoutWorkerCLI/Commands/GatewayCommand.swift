import ArgumentParser
import Delivery
import Gateway
import Kafka
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
    @Option(SettingTable.stateTopic) var stateTopic: String?
    @Option(SettingTable.changesTopic)
    var changesTopic: String?
    @Option(SettingTable.host) var host: String?
    @Option(SettingTable.port)
    var port: String?
    @Option(SettingTable.maxHeldBytes) var maxHeldBytes: String?
    @Option(SettingTable.maxStreams)
    var maxStreams: String?
    @Option(SettingTable.stateDir) var stateDir: String?
    @Option(SettingTable.http) var http: String?
    @Option(SettingTable.corsOrigin) var corsOrigin: String?

    func run() async throws {
        ProcessAllocator.returnFreedMemory()
        let resolved = try connection.resolve(clientID: "layout-worker-gateway")
        let sources = resolved.sources
        guard let changes = try sources.read(SettingTable.changesTopic, changesTopic) else {
            throw ValidationError("no change-set topic: pass --changes-topic or set LAYOUT_WORKER_CHANGES_TOPIC")
        }
        let latest =
            try sources.read(SettingTable.stateTopic, stateTopic) ?? SettingTable.stateTopic(defaultFor: changes)
        var settings = GatewaySettings(kafka: resolved.kafka, stateTopic: latest, changesTopic: changes)
        settings.host = try sources.read(SettingTable.host, host)
        settings.port = try sources.read(SettingTable.port, port) ?? GatewaySettings.defaultPort
        settings.maxBytes = try sources.read(SettingTable.maxHeldBytes, maxHeldBytes)
        settings.maxStreams = try sources.read(SettingTable.maxStreams, maxStreams)
        if let origins = try sources.read(SettingTable.corsOrigin, corsOrigin) {
            settings.corsOrigins = origins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        let ops = try OpsListener.address(
            try sources.read(SettingTable.http, http) ?? "127.0.0.1:\(GatewaySettings.defaultOpsPort)")
        (settings.opsHost, settings.opsPort) = (ops?.host, ops?.port ?? settings.opsPort)
        let dir =
            try sources.read(SettingTable.stateDir, stateDir) ?? SettingTable.defaultStateRoot + "/gateway-" + latest
        settings.stateDirectory = dir == "off" ? nil : dir
        // The page store's directory is this process's alone, from before it reads a topic to its exit.
        let storeLock = try settings.stateDirectory.map(PageStoreOwner.take)
        defer { withExtendedLifetime(storeLock) {} }
        let logger = resolved.logger
        let (host, opsHost) = (settings.host, settings.opsHost)
        let shown: @Sendable (String) -> String = { h in h == "0.0.0.0" ? "127.0.0.1" : h.contains(":") ? "[\(h)]" : h }
        let services = GatewayServer.services(
            settings: settings, registry: PrometheusCollectorRegistry(),
            build: OpsListener.build, logger: logger
        ) { bound, limits in
            Output.line(
                "gateway: http://\(shown(host)):\(bound.api)/v1/layouts/{key} (latest \(latest), changes \(changes))")
            if let ops = bound.ops, let opsHost {
                Output.line("gateway ops: http://\(shown(opsHost)):\(ops)/readyz, /metrics, live page /?key=...")
            }
            Output.line("gateway limits: \(limits)")
        }
        let group = ServiceGroup(
            configuration: .init(
                services: services.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
