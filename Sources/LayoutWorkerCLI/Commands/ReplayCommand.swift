import ArgumentParser
import Delivery
import Dispatch
import Foundation
import Kafka
import LayoutCompiler
import Logging
import Mapping
import Ops
import Prometheus
import Replay
import Serve
import ServiceLifecycle
import Tracing

/// `layout-worker replay`: recompile a bounded range of a topic into a chosen topic, without touching any group.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract:
            "Recompile a bounded range of a topic into a chosen topic (reads by assignment; never joins a group).",
        discussion: """
            --start: beginning | offset:N | P:N,P:N... | time:ISO8601 | ago:DURATION (e.g. ago:2h30m)
            --stop:  end (the end offsets read when the replay starts) | offset:N | time:ISO8601 | now
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var limits: LimitOptions
    @Option(SettingTable.input) var input: [String] = []
    @Option(help: "Partitions to read, e.g. 0,3,5 (default all).") var partitions: String?
    @Option(help: "Where to start.") var start: String = "beginning"
    @Option(help: "Where to stop (exclusive).") var stop: String = "end"
    @Option(SettingTable.output) var output: String?
    @Option(SettingTable.deadLetter) var deadLetter: String?
    @Option(SettingTable.config) var config: String?
    @Option(help: "At most this many records per second, e.g. 500 or 500/s.") var rate: String?
    @Flag(name: .customLong("dry-run"), help: "Compile and report diagnostics; produce nothing.") var dryRun = false
    @Option(
        help:
            "Checkpoint file: the last acknowledged offset per partition, with the input, output and range; the same command continues after it, another is refused. A dry run neither reads nor writes it."
    )
    var checkpoint: String?
    @Flag(help: "Keep tailing after the end offsets read at the start.") var follow = false
    @Option(help: "The summary: text, or json (one document on stdout).") var format: OutputFormat = .text
    @Option(SettingTable.http) var http: String?

    func run() async throws {
        let resolved = try connection.resolve(defaultLevel: .warning)
        let logger = resolved.logger
        let settings = try replaySettings(resolved.sources, kafka: resolved.kafka)
        let checked = try loadCheckedConfigOrExit(
            try resolved.sources.read(SettingTable.config, config) ?? DefaultMappingConfig.path())
        let interactive = isatty(2) != 0
        let ops = try OpsListener.address(try resolved.sources.read(SettingTable.http, http) ?? SettingValidation.off)
        let registry = PrometheusCollectorRegistry()
        // Ctrl-C and SIGTERM stop the replay cleanly: in-flight records are flushed and the checkpoint written.
        let replay = ReplayService(
            settings: settings,
            compiler: LayoutCompiler(config: checked.config, maxInputBytes: settings.limits.maxMessageBytes),
            configHash: checked.hash,
            metrics: ops.map { _ in ReplayMetrics(factory: MetricCatalog.factory(on: registry)) },
            tracer: MessageTracer(tracer: InstrumentationSystem.tracer, group: nil), logger: logger
        ) { line in
            Output.write(2, Array(((interactive ? "\r\u{1B}[K" : "") + line + (interactive ? "" : "\n")).utf8))
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: replay, successTerminationBehavior: .gracefullyShutdownGroup)
        ]
        if let ops {
            services.append(OpsListener.service(at: ops, registry: registry, probes: replay.status, logger: logger))
        }
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        let summary: ReplaySummary
        switch replay.result.outcome {
        case .success(let s)?: summary = s
        case .failure(let error)?:
            Output.error(ConnectionOptions.unreachableMessage(error, of: self) ?? "replay failed: \(error)")
            throw ExitCode(1)
        case nil:
            Output.error("replay failed: it did not finish")
            throw ExitCode(1)
        }
        if interactive { Output.write(2, Array("\n".utf8)) }
        try show(summary)
        if summary.interrupted { throw ExitCode(130) }
    }

    /// The range, partitions, destination and pace from the flags.
    private func replaySettings(_ sources: SettingsSources, kafka: KafkaConfiguration) throws -> ReplaySettings {
        let now = Date()
        let range: ReplayRange
        do {
            range = try ReplayRange.checked(
                start: try ReplayRange.parseStart(start, now: now), stop: try ReplayRange.parseStop(stop, now: now))
        } catch {
            throw ValidationError(error.description)
        }
        var settings = ReplaySettings(kafka: kafka, fromTopic: try topicToRead(sources), range: range)
        settings.rangeAsWritten = (start, stop)
        if let partitions {
            settings.partitions = try partitions.split(separator: ",").map {
                guard let p = Int32($0.trimmingCharacters(in: .whitespaces)), p >= 0 else {
                    throw ValidationError("--partitions takes numbers like 0,3,5")
                }
                return p
            }
        }
        let output = try sources.read(SettingTable.output, output)
        settings.toTopic = output
        settings.deadLetterTopic = try sources.read(SettingTable.deadLetter, deadLetter)
        settings.limits = try limits.resolve(sources)
        settings.dryRun = dryRun
        settings.checkpointPath = checkpoint
        if dryRun, let checkpoint {
            Output.error("replay: --dry-run neither reads nor writes the checkpoint \(checkpoint)")
        }
        settings.follow = follow
        if let rate {
            guard let r = Double(rate.replacingOccurrences(of: "/s", with: "")), r > 0 else {
                throw ValidationError("--rate takes a positive number, e.g. 500/s")
            }
            settings.rate = r
        }
        if !dryRun && output == nil {
            throw ValidationError("no output topic: pass --output (or set LAYOUT_WORKER_OUTPUT), or --dry-run")
        }
        if !dryRun, let output {
            try SettingValidation.noLoop(
                inputs: [settings.fromTopic],
                writes: [
                    ("--output", output), ("--dead-letter", settings.deadLetterTopic ?? DeadLetter.topic(for: output)),
                ],
                command: "replay")
        }
        return settings
    }

    /// The one topic `--input` (or `LAYOUT_WORKER_INPUT`) names: a replay reads a range of one topic, not a pattern.
    private func topicToRead(_ sources: SettingsSources) throws -> String {
        let inputs = sources.list(SettingTable.input, input)
        guard inputs.count == 1, let topic = inputs.first, !topic.hasPrefix("^") else {
            throw ValidationError(
                inputs.isEmpty
                    ? "no input topic: pass --input (or set LAYOUT_WORKER_INPUT)"
                    : "replay reads one topic, not \(inputs.joined(separator: ", ")): pass --input once, with a name")
        }
        return topic
    }

    /// Prints the summary: JSON on stdout with `--format json`, else a few lines.
    private func show(_ summary: ReplaySummary) throws {
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            Output.line(String(decoding: try encoder.encode(summary), as: UTF8.self))
            return
        }
        Output.line(
            "replay of \(summary.topic)\(summary.dryRun ? " (dry run)" : " into \(summary.toTopic ?? "")"): \(summary.totalRead) read in \(String(format: "%.1f", summary.elapsedSeconds)) s\(summary.interrupted ? ", INTERRUPTED" : "")"
        )
        for p in summary.partitions {
            Output.line(
                "  partition \(p.partition): range \(p.start)..<\(p.stop == Int64.max ? "∞" : String(p.stop)), read \(p.first.map(String.init) ?? "-")...\(p.last.map(String.init) ?? "-"), compiled \(p.compiled), tombstones \(p.tombstoned), dead-lettered \(p.deadLettered), skipped \(p.skipped)"
            )
        }
        func counts(_ byKey: [String: Int]) -> String {
            byKey.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        if !summary.diagnosticsByCode.isEmpty {
            Output.line("  diagnostics by code: " + counts(summary.diagnosticsByCode))
            Output.line("  diagnostics by content type: " + counts(summary.diagnosticsByType))
        }
        if !summary.failuresByCode.isEmpty {
            Output.line(
                "  \(summary.dryRun ? "would dead-letter" : "dead-lettered") by code: " + counts(summary.failuresByCode)
            )
        }
    }
}
