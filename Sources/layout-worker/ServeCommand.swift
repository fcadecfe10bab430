import ArgumentParser
import Foundation
import Kafka
import LayoutCompiler
import LayoutService
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import Yams
import Mapping

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

    @Option(help: "YAML settings file (keys named like these options).") var settings: String?
    @Option(help: "Bootstrap brokers, host:port[,host:port].") var brokers: String?
    @Option(help: "Input topic (repeatable; a name starting with ^ is a regex).") var input: [String] = []
    @Option(help: "Output topic for layout records.") var output: String?
    @Option(name: .customLong("dead-letter"), help: "Dead-letter topic.") var deadLetter: String?
    @Option(help: "Consumer group id.") var group: String?
    @Option(help: "Mapping config (YAML).") var config: String?
    @Option(help: "Tombstones: forward (default) or skip.") var tombstones: String?
    @Option(name: .customLong("max-message-bytes"), help: "Larger inputs are dead-lettered (default 8388608).") var maxMessageBytes: Int?
    @Option(name: .customLong("max-in-flight"), help: "Pause fetching above this many unacknowledged messages (default 2000).") var maxInFlight: Int?
    @Option(name: .customLong("max-in-flight-bytes"), help: "Pause fetching above this many input + output bytes unacknowledged (default 33554432).") var maxInFlightBytes: Int?
    @Option(name: .customLong("crash-state-dir"), help: "Directory for the crash-loop breaker's state; must outlive the process ('off' disables; default $TMPDIR/layout-worker).") var crashStateDir: String?
    @Option(name: .customLong("batch-size"), help: "Messages compiled per batch (default 256).") var batchSize: Int?
    @Option(name: .customLong("shutdown-timeout-ms"), help: "Bound for draining and leaving on SIGTERM/SIGINT (default 20000).") var shutdownTimeoutMs: Int?
    @Option(name: .customLong("producer-stall-ms"), help: "Replace a producer that acknowledges nothing for this long while messages wait (default 10000).") var producerStallMs: Int?
    @Option(help: "Ops listener host:port for /metrics, /healthz, /readyz (default 127.0.0.1:9464; 'off' disables).") var http: String?
    @Option(name: .customLong("kafka-property"), help: "librdkafka property key=value for every client (repeatable).") var kafkaProperty: [String] = []
    @Option(name: .customLong("consumer-property"), help: "librdkafka consumer property key=value (repeatable).") var consumerProperty: [String] = []
    @Option(name: .customLong("producer-property"), help: "librdkafka producer property key=value (repeatable).") var producerProperty: [String] = []
    @Option(name: .customLong("changes-topic"), help: "Also publish a change set per message against the page's previous layout.") var changesTopic: String?
    @Option(name: .customLong("state-topic"), help: "Compacted latest-layout topic, partitioned like the input (default <changes-topic>.latest).") var stateTopic: String?
    @Option(name: .customLong("page-key"), help: "Page key for change sets: message-key (default) or response (content path + canonical navigation state).") var pageKey: String?
    @Option(name: .customLong("state-max-bytes"), help: "Budget of the in-memory latest-layout store (default 268435456).") var stateMaxBytes: Int?
    @Option(name: .customLong("stop-after"), help: "Exit after this many messages are accounted for (demos, tests).") var stopAfter: Int?
    @Flag(name: .customLong("pass-through"), help: .hidden) var passThrough = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error, critical (default info).") var logLevel: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let file = try loadSettingsFile(settings ?? environment["LAYOUT_WORKER_SETTINGS"])
        func value(_ flag: String?, _ name: String) -> String? {
            if let flag { return flag }
            let env = "LAYOUT_WORKER_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
            if let v = environment[env], !v.isEmpty { return v }
            return file[name]
        }
        func list(_ flags: [String], _ name: String) -> [String] {
            if !flags.isEmpty { return flags }
            return value(nil, name)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        }
        /// An integer setting, refused below `minimum`.
        func int(_ flag: Int?, _ name: String, atLeast minimum: Int = .min) throws -> Int? {
            if let flag { return try SettingValidation.atLeast(minimum, flag, name) }
            guard let text = value(nil, name) else { return nil }
            guard let n = Int(text) else { throw ValidationError("\(name) must be an integer, not '\(text)'") }
            return try SettingValidation.atLeast(minimum, n, name)
        }
        func properties(_ flags: [String], _ name: String) throws -> [String: String] {
            try SettingValidation.properties(list(flags, name), name)
        }

        var logger = Logger(label: "layout-worker") { StreamLogHandler.standardError(label: $0) }
        let level = value(logLevel, "log-level") ?? "info"
        guard let parsedLevel = Logger.Level(rawValue: level) else { throw ValidationError("unknown log level '\(level)'") }
        logger.logLevel = parsedLevel

        let inputs = list(input, "input")
        guard !inputs.isEmpty else { throw ValidationError("no input topic: pass --input or set LAYOUT_WORKER_INPUT") }
        guard let outputTopic = value(output, "output") else { throw ValidationError("no output topic: pass --output or set LAYOUT_WORKER_OUTPUT") }
        let kafka = KafkaConfiguration(bootstrapServers: try SettingValidation.brokers(value(brokers, "brokers") ?? "127.0.0.1:9092"),
                                       properties: try properties(kafkaProperty, "kafka-property"))
        var serve = ServeSettings(kafka: kafka, inputTopics: inputs, outputTopic: outputTopic,
                                  deadLetterTopic: value(deadLetter, "dead-letter") ?? outputTopic + ".dead-letters",
                                  groupID: value(group, "group") ?? "layout-worker")
        if let t = value(tombstones, "tombstones") {
            guard let policy = ServeSettings.TombstonePolicy(rawValue: t) else { throw ValidationError("tombstones must be forward or skip") }
            serve.tombstones = policy
        }
        if let n = try int(maxMessageBytes, "max-message-bytes", atLeast: 1) { serve.maxMessageBytes = n }
        if let n = try int(maxInFlight, "max-in-flight", atLeast: 1) { serve.maxInFlight = n }
        if let n = try int(maxInFlightBytes, "max-in-flight-bytes", atLeast: 1) { serve.maxInFlightBytes = n }
        if let n = try int(batchSize, "batch-size", atLeast: 1) { serve.batchSize = n }
        if let n = try int(shutdownTimeoutMs, "shutdown-timeout-ms", atLeast: 100) { serve.shutdownTimeoutMs = n }
        if let n = try int(producerStallMs, "producer-stall-ms", atLeast: 1_000) { serve.producerStallMs = n }
        serve.stopAfter = try int(stopAfter, "stop-after", atLeast: 1)
        let crashDir = value(crashStateDir, "crash-state-dir")
            ?? (environment["TMPDIR"].map { $0 + "/layout-worker" } ?? "/tmp/layout-worker")
        serve.crashStateDirectory = crashDir == "off" ? nil : crashDir
        #if DEBUG
        serve.debugCrashKey = environment["LAYOUT_WORKER_DEBUG_CRASH_KEY"]
        #endif
        serve.passThrough = passThrough
        serve.consumerProperties = try properties(consumerProperty, "consumer-property")
        serve.producerProperties = try properties(producerProperty, "producer-property")

        if let topic = value(changesTopic, "changes-topic") {
            var changes = ChangeSettings(changesTopic: topic, stateTopic: value(stateTopic, "state-topic") ?? topic + ".latest")
            if let k = value(pageKey, "page-key") {
                guard let source = ChangeSettings.PageKeySource(rawValue: k) else { throw ValidationError("page-key must be message-key or response") }
                changes.pageKey = source
            }
            if let n = try int(stateMaxBytes, "state-max-bytes") { changes.storeMaxBytes = max(1, n) }
            serve.changes = changes
        }

        let mapping = try loadMappingConfigOrExit(value(config, "config") ?? "config/default.yaml")
        let compiler = LayoutCompiler(config: mapping, maxInputBytes: serve.maxMessageBytes)

        let registry = PrometheusCollectorRegistry()
        let metrics = WorkerMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let status = WorkerStatus()
        var ops: OpsServer?
        let httpAddress = value(http, "http") ?? "127.0.0.1:9464"
        if httpAddress != "off" {
            guard let colon = httpAddress.lastIndex(of: ":"), let port = UInt16(httpAddress[httpAddress.index(after: colon)...]) else {
                throw ValidationError("http must be host:port or off, not '\(httpAddress)'")
            }
            let server = OpsServer(host: String(httpAddress[..<colon]), port: port, registry: registry, status: status)
            let bound = try server.start()
            logger.info("ops listener", metadata: ["address": .string("\(httpAddress[..<colon]):\(bound)")])
            ops = server
        }
        logger.info("kafka settings", metadata: ["properties": .string(serve.kafka.redactedProperties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))])

        let worker = WorkerService(settings: serve, compiler: compiler, status: status, metrics: metrics, logger: logger)
        let service = ServiceGroupConfiguration.ServiceConfiguration(
            service: worker, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "layout-worker")
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        defer { ops?.stop() }
        try await group.run()
    }

    private func loadSettingsFile(_ path: String?) throws -> [String: String] {
        guard let path else { return [:] }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw ValidationError("cannot read settings file \(path)") }
        guard let node = try Yams.compose(yaml: text), case .mapping(let mapping) = node else { return [:] }
        var out: [String: String] = [:]
        for (k, v) in mapping {
            guard let key = k.string else { continue }
            switch v {
            case .scalar(let s): out[key] = s.string
            case .sequence(let seq): out[key] = seq.compactMap(\.string).joined(separator: ",")
            case .mapping(let m): out[key] = m.compactMap { kv in kv.key.string.map { "\($0)=\(kv.value.string ?? "")" } }.joined(separator: ",")
            default: continue
            }
        }
        return out
    }
}
