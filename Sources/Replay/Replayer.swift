public import Delivery
import Foundation
import Kafka
public import LayoutCompiler
import LayoutKit
public import Logging
import Ops
import Tracing

/// Recompiles a bounded range of a topic into a chosen topic by assignment (never joining a group).
public final class Replayer {
    let settings: ReplaySettings
    let compiler: LayoutCompiler
    /// The hash of the compiler's config, named in every record (`Wire.Header.config`).
    let configHash: String
    let status: ReplayStatus
    let metrics: ReplayMetrics?
    /// One span per recompiled message, and the trace headers of its outputs.
    let tracer: MessageTracer
    var logger: Logger
    let progress: (String) -> Void

    /// A replayer; `progress` receives progress lines, `status` carries the stop request (Ctrl-C) and what the ops
    /// endpoints report, `metrics` (with `--http`) counts what it reads and how each message ended.
    public init(
        settings: ReplaySettings, compiler: LayoutCompiler, configHash: String, status: ReplayStatus,
        metrics: ReplayMetrics? = nil, tracer: MessageTracer, logger: Logger, progress: @escaping (String) -> Void
    ) {
        self.settings = settings
        self.compiler = compiler
        self.configHash = configHash
        self.status = status
        self.metrics = metrics
        self.tracer = tracer
        self.logger = logger
        self.progress = progress
    }

    /// A replay that cannot start or went wrong.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs the replay to the end of its range (or until stopped) and returns the summary.
    public func run() throws -> ReplaySummary {
        let started = ContinuousClock.now
        status.enter(.starting)
        defer { status.enter(.finished) }
        guard let all = try TopicRangeReader.partitions(of: settings.fromTopic, configuration: settings.kafka) else {
            throw Failure(description: "topic \(settings.fromTopic) does not exist")
        }
        let chosen = try TopicRangeReader.choose(settings.partitions, among: all, of: settings.fromTopic)
        let reader = try TopicRangeReader(configuration: settings.kafka, topic: settings.fromTopic)
        defer { reader.close() }
        var bounds = try self.bounds(of: chosen, reader: reader)
        let checkpoint = try resume(&bounds)
        if let path = settings.checkpointPath, !checkpoint.done.isEmpty,
            bounds.values.allSatisfy({ $0.start >= $0.stop })
        {
            progress("replay: checkpoint \(path) has every partition done to its stop; nothing left to read")
        }
        let tally = ReplayTally(
            summary: ReplaySummary(
                topic: settings.fromTopic, toTopic: settings.dryRun ? nil : settings.toTopic, dryRun: settings.dryRun,
                partitions: chosen.map {
                    ReplaySummary.Partition(partition: $0, start: bounds[$0]!.start, stop: bounds[$0]!.stop)
                }),
            checkpoint: checkpoint, metrics: metrics)
        try reader.read(
            chosen.map {
                .init(
                    partition: $0, start: bounds[$0]!.start, stop: settings.follow ? .never : .offset(bounds[$0]!.stop))
            })
        let delivery = try makeDelivery(counting: tally)
        status.enter(.reading)
        try read(reader, into: tally, through: delivery, started: started)
        tally.summary.interrupted = status.stop.isRequested && !reader.isDone
        status.enter(.draining)
        if let delivery { drain(delivery) }
        save(tally)
        tally.summary.failuresByCode = tally.summary.partitions.reduce(into: [:]) { out, p in
            out.merge(p.settled.deadLetteredByCode, uniquingKeysWith: +)
        }
        tally.summary.elapsedSeconds = (ContinuousClock.now - started) / .seconds(1)
        return tally.summary
    }

    /// Each partition's range, `start ..< stop`, from the settings' start and stop and the partition's watermarks.
    private func bounds(of partitions: [Int32], reader: TopicRangeReader) throws -> [Int32: (start: Int64, stop: Int64)]
    {
        let times = TimeLookup(kafka: settings.kafka, topic: settings.fromTopic)
        var bounds: [Int32: (start: Int64, stop: Int64)] = [:]
        // Ends as a fetch finds them: a replay never reports success having read less than its range holds.
        let extents = try reader.extents(partitions)
        for p in partitions {
            let (low, high) = (extents[p]?.low ?? 0, extents[p]?.end ?? 0)
            let start = try settings.range.start.offset(
                partition: p, low: low, high: high, times: times, reader: reader)
            var stop: Int64
            switch settings.range.stop {
            case .end: stop = high
            case .offset(let n): stop = min(n, high)
            case .time(let t):
                stop = try times.firstOffset(atOrAfter: t, partition: p, low: low, high: high, reader: reader)
            }
            if settings.follow { stop = Int64.max }
            bounds[p] = (start, max(start, stop))
        }
        return bounds
    }

    /// The checkpoint to keep (the saved one, whose done offsets move each range's start on), or a new one.
    private func resume(_ bounds: inout [Int32: (start: Int64, stop: Int64)]) throws -> ReplayCheckpoint {
        let asked = ReplayCheckpoint(
            topic: settings.fromTopic, output: settings.toTopic, partitions: settings.partitions,
            start: settings.rangeAsWritten.start, stop: settings.rangeAsWritten.stop)
        // A dry run neither continues a checkpoint nor writes one: it must not cancel the real backfill.
        guard !settings.dryRun, let path = settings.checkpointPath, let saved = try ReplayCheckpoint.load(path) else {
            return asked
        }
        if let refusal = saved.refusal(toContinue: asked, path: path) { throw Failure(description: refusal) }
        for (p, b) in bounds {
            if let done = saved.done[String(p)] { bounds[p] = (min(max(b.start, done + 1), b.stop), b.stop) }
        }
        return saved
    }

    /// The delivery engine (nil for a dry run), counting each message into `tally` once it is settled.
    private func makeDelivery(counting tally: ReplayTally) throws -> DeliveryEngine? {
        guard !settings.dryRun else { return nil }
        guard let toTopic = settings.toTopic else {
            throw Failure(description: "--output is required unless --dry-run")
        }
        let delivery = try DeliveryEngine(
            settings: .init(
                producer: settings.kafka, deadLetterTopic: settings.deadLetterTopic ?? DeadLetter.topic(for: toTopic),
                version: settings.version, stall: settings.limits.producerStall),
            maxInputBytes: settings.limits.maxMessageBytes, metrics: nil, logger: logger)
        delivery.onSettled = { m, settlement in tally.settled(m, settlement) }
        delivery.onBlockedChange = { [progress, status] reason in
            status.setOutputBlocked(reason)
            progress(reason.map { "replay: output blocked, waiting: \($0)" } ?? "replay: output unblocked")
        }
        return delivery
    }

    /// Reads every partition's range (or until stopped), recompiling each message.
    private func read(
        _ reader: TopicRangeReader, into tally: ReplayTally, through delivery: DeliveryEngine?,
        started: ContinuousClock.Instant
    ) throws {
        let total = tally.summary.partitions.reduce(Int64(0)) { $0 + (settings.follow ? 0 : $1.stop - $1.start) }
        let rateStart = ContinuousClock.now
        var progressLines = Periodic(every: .seconds(settings.progressIntervalSeconds))
        var checkpoints = Periodic(every: .seconds(1))
        let report = { [self] (lines: inout Periodic) in
            status.beat(read: tally.read, of: settings.follow ? nil : Int(total))
            metrics?.remaining.record(settings.follow ? -1 : total - Int64(tally.read))
            reportProgress(&lines, summary: tally.summary, read: tally.read, total: total, started: started)
        }
        while !reader.isDone && !status.stop.isRequested {
            if let delivery {
                delivery.service()
                // Reading waits while the output is blocked or the in-flight limits are reached.
                if delivery.blocked != nil
                    || settings.limits.isFull(messages: delivery.inFlightMessages, bytes: delivery.inFlightBytes)
                {
                    delivery.service(timeoutMs: 50, flush: true)
                    report(&progressLines)
                    continue
                }
            }
            guard let result = reader.next(timeoutMs: 100) else {
                report(&progressLines)
                continue
            }
            guard case .success(let m) = result else {
                if case .failure(let e) = result, e.isFatal { throw Failure(description: "consumer: \(e)") }
                continue
            }
            tally.take(m)
            pace(tally.read, since: rateStart)
            tally.summary.readSeconds = (ContinuousClock.now - rateStart) / .seconds(1)
            recompile(m, into: tally, through: delivery)
            report(&progressLines)
            if checkpoints.isDue() { save(tally) }
        }
    }

    /// Sleeps as `--rate` says once `read` messages are read.
    private func pace(_ read: Int, since start: ContinuousClock.Instant) {
        guard let rate = settings.rate, rate > 0 else { return }
        let due = Double(read) / rate
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        if due > elapsed { usleep(UInt32(min(5, due - elapsed) * 1_000_000)) }
    }

    /// Compiles one message and sends what it becomes (a dry run only counts it).
    private func recompile(_ m: KafkaMessage, into tally: ReplayTally, through delivery: DeliveryEngine?) {
        let compileStarted = DefaultTracerClock.now
        let outcome = MessageOutcome.of(m, compiler: compiler, limits: settings.limits)
        if case .record(_, let diagnostics) = outcome {
            for d in diagnostics {
                tally.summary.diagnosticsByCode[d.code, default: 0] += 1
                tally.summary.diagnosticsByType[d.contentType, default: 0] += 1
            }
        }
        guard let delivery, let toTopic = settings.toTopic else {
            // A dry run counts what each message would become.
            return tally.settled(m, DeliveryEngine.Settlement(wouldBe: outcome))
        }
        let span = tracer.start(m, at: compileStarted)
        delivery.deliver(
            Outputs(outcome, of: m, to: toTopic, config: configHash, trace: span.headers), of: m, span: span)
    }

    /// Waits for what is in flight: up to 30 s even after an interrupt, so the checkpoint covers it; a blocked
    /// output is then waited out (never dead-lettered) until it unblocks or the replay is interrupted.
    private func drain(_ delivery: DeliveryEngine) {
        // Each turn of the wait is a turn of the loop: a replay waiting out a blocked output stays alive.
        var settled = delivery.drain(within: .seconds(30)) { [status] in
            status.heartbeat.beat()
            return false
        }
        while !settled && delivery.blocked != nil && !status.stop.isRequested {
            settled = delivery.drain(within: .seconds(30)) { [status] in
                status.heartbeat.beat()
                return status.stop.isRequested
            }
        }
        if delivery.inFlightMessages > 0 {
            logger.warning(
                "records still unacknowledged at exit; not checkpointed",
                metadata: ["count": .stringConvertible(delivery.inFlightMessages)])
            delivery.abandonUnsettled("the replay ended before the outputs were acknowledged")
        }
    }

    /// Writes the checkpoint (with `--checkpoint`): each partition's offsets done without a gap.
    private func save(_ tally: ReplayTally) {
        guard !settings.dryRun, let path = settings.checkpointPath else { return }
        for c in tally.tracker.committable() {
            tally.checkpoint.done[String(c.partition.number)] = c.offset - 1
            tally.tracker.confirmed(c)
        }
        do { try tally.checkpoint.save(path) } catch {
            logger.error("cannot write checkpoint", metadata: ["path": .string(path), "error": .string("\(error)")])
        }
    }

    private func reportProgress(
        _ lines: inout Periodic, summary: ReplaySummary, read: Int, total: Int64, started: ContinuousClock.Instant
    ) {
        guard lines.isDue() else { return }
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let rate = elapsed > 0 ? Double(read) / elapsed : 0
        let parts = summary.partitions.map { p -> String in
            let done = (p.last.map { $0 + 1 } ?? p.start) - p.start
            return "p\(p.partition) \(done)/\(settings.follow ? "∞" : String(p.stop - p.start))"
        }.joined(separator: " ")
        let eta = rate > 0 && total > 0 ? String(format: "%.0fs", Double(total - Int64(read)) / rate) : "-"
        progress(
            "replay \(settings.fromTopic): \(read)/\(settings.follow ? "∞" : String(total)) \(parts) \(String(format: "%.0f", rate))/s eta \(eta)"
        )
    }
}
