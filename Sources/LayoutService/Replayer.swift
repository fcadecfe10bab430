import Dispatch
import Foundation
import Kafka
public import LayoutCompiler
public import Logging
import Tracing

/// Recompiles a bounded range of a topic into a chosen topic by assignment (never joining a group).
public final class Replayer {
    let settings: ReplaySettings
    let compiler: LayoutCompiler
    /// The hash of the compiler's config, named in every record (`OutputHeader.config`).
    let configHash: String
    let status: WorkerStatus
    /// One span per recompiled message, and the trace headers of its outputs.
    let tracer: MessageTracer
    var logger: Logger
    let progress: (String) -> Void

    /// A replayer; `progress` receives progress lines, `status` carries the stop request (Ctrl-C).
    public init(
        settings: ReplaySettings, compiler: LayoutCompiler, configHash: String, status: WorkerStatus,
        tracer: MessageTracer, logger: Logger, progress: @escaping (String) -> Void
    ) {
        self.settings = settings
        self.compiler = compiler
        self.configHash = configHash
        self.status = status
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
        let started = DispatchTime.now()
        let topic = settings.fromTopic
        let admin = try KafkaAdmin(configuration: settings.kafka)
        guard let count = try admin.partitionCount(topic: topic) else {
            throw Failure(description: "topic \(topic) does not exist")
        }
        let all = (0..<Int32(count)).map { $0 }
        let chosen = settings.partitions ?? all
        for p in chosen where !all.contains(p) {
            throw Failure(description: "\(topic) has no partition \(p) (it has \(count))")
        }

        let consumer = try KafkaConsumer(
            configuration: settings.kafka, groupID: nil, defaults: ["fetch.wait.max.ms": "50"])
        let times = TimeLookup(kafka: settings.kafka, topic: topic)
        var bounds: [Int32: (start: Int64, stop: Int64)] = [:]
        for p in chosen {
            let (low, high) = try consumer.queryWatermarks(topic: topic, partition: p)
            var start: Int64
            switch settings.range.start {
            case .beginning: start = low
            case .offset(let n): start = max(n, low)
            case .offsets(let map): start = max(map[p] ?? low, low)
            case .time(let t):
                start = try times.firstOffset(atOrAfter: t, partition: p, low: low, high: high, consumer: consumer)
            }
            var stop: Int64
            switch settings.range.stop {
            case .end: stop = high
            case .offset(let n): stop = min(n, high)
            case .time(let t):
                stop = try times.firstOffset(atOrAfter: t, partition: p, low: low, high: high, consumer: consumer)
            }
            if settings.follow { stop = Int64.max }
            bounds[p] = (start, max(start, stop))
        }
        var checkpoint = ReplayCheckpoint(topic: topic)
        if let path = settings.checkpointPath, let saved = try ReplayCheckpoint.load(path) {
            guard saved.topic == topic else {
                throw Failure(description: "checkpoint \(path) is for topic \(saved.topic), not \(topic)")
            }
            checkpoint = saved
            for (p, b) in bounds {
                if let done = saved.done[String(p)] { bounds[p] = (min(max(b.start, done + 1), b.stop), b.stop) }
            }
        }

        var summary = ReplaySummary(
            topic: topic, toTopic: settings.dryRun ? nil : settings.toTopic, dryRun: settings.dryRun,
            partitions: chosen.map {
                ReplaySummary.Partition(partition: $0, start: bounds[$0]!.start, stop: bounds[$0]!.stop)
            })
        let active = chosen.filter { bounds[$0]!.start < bounds[$0]!.stop }
        let total = active.reduce(Int64(0)) { $0 + (settings.follow ? 0 : bounds[$1]!.stop - bounds[$1]!.start) }
        try consumer.assign(active.map { TopicPartition(topic, $0, offset: bounds[$0]!.start) })

        let deadLetterTopic = settings.deadLetterTopic ?? (settings.toTopic ?? "") + ".dead-letters"
        var delivery: DeliveryEngine?
        if !settings.dryRun {
            guard settings.toTopic != nil else { throw Failure(description: "--to-topic is required unless --dry-run") }
            delivery = try DeliveryEngine(
                settings: .init(
                    producer: settings.kafka, deadLetterTopic: deadLetterTopic, version: settings.version,
                    stallMs: settings.producerStallMs),
                maxInputBytes: settings.maxMessageBytes, metrics: nil, logger: logger)
        }
        var tracker = OffsetTracker()
        var finished = Set(chosen.filter { !active.contains($0) })
        var read = 0
        let rateStart = DispatchTime.now()
        var lastProgress = DispatchTime.now()
        var lastCheckpoint = DispatchTime.now()

        func index(_ p: Int32) -> Int { summary.partitions.firstIndex { $0.partition == p }! }
        // A message is counted once its outputs are acknowledged, by how it ended.
        delivery?.onSettled = { m, settlement in
            let i = index(m.partition)
            switch settlement {
            case .published: summary.partitions[i].compiled += 1
            case .tombstoned: summary.partitions[i].tombstoned += 1
            case .skipped: summary.partitions[i].skipped += 1
            case .deadLettered(let code):
                summary.partitions[i].deadLettered += 1
                summary.failuresByCode[code, default: 0] += 1
            }
            tracker.complete(topic: topic, partition: m.partition, offset: m.offset)
        }
        delivery?.onBlockedChange = { [progress] reason in
            progress(reason.map { "replay: output blocked, waiting: \($0)" } ?? "replay: output unblocked")
        }
        func saveCheckpoint() {
            guard let path = settings.checkpointPath else { return }
            for c in tracker.committable() {
                checkpoint.done[String(c.partition)] = c.offset - 1
                tracker.confirmed(topic: c.topic, partition: c.partition, offset: c.offset)
            }
            do { try checkpoint.save(path) } catch {
                logger.error(
                    "cannot write checkpoint", metadata: ["path": .string(path), "error": .string("\(error)")])
            }
        }

        while finished.count < chosen.count && !status.stopRequested {
            if let delivery {
                delivery.service()
                // Reading waits while the output is blocked or the in-flight limits are reached.
                if delivery.blocked != nil || delivery.inFlightMessages >= settings.maxInFlight
                    || delivery.inFlightBytes >= settings.maxInFlightBytes
                {
                    delivery.service(timeoutMs: 50, flush: true)
                    reportProgress(&lastProgress, summary: summary, read: read, total: total, started: started)
                    continue
                }
            }
            guard let result = consumer.poll(timeoutMs: 100) else {
                reportProgress(&lastProgress, summary: summary, read: read, total: total, started: started)
                continue
            }
            guard case .success(let m) = result else {
                if case .failure(let e) = result, e.isFatal { throw Failure(description: "consumer: \(e)") }
                continue
            }
            guard let b = bounds[m.partition], m.offset < b.stop else {
                finished.insert(m.partition)
                continue
            }
            let i = index(m.partition)
            if summary.partitions[i].first == nil { summary.partitions[i].first = m.offset }
            summary.partitions[i].last = m.offset
            if m.offset + 1 >= b.stop { finished.insert(m.partition) }
            read += 1
            summary.readSeconds = Double(DispatchTime.now().uptimeNanoseconds - rateStart.uptimeNanoseconds) / 1e9
            tracker.begin(topic: topic, partition: m.partition, offset: m.offset)
            if let rate = settings.rate, rate > 0 {
                let due = Double(read) / rate
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - rateStart.uptimeNanoseconds) / 1e9
                if due > elapsed { usleep(UInt32(min(5, due - elapsed) * 1_000_000)) }
                summary.readSeconds = Double(DispatchTime.now().uptimeNanoseconds - rateStart.uptimeNanoseconds) / 1e9
            }
            let compileStarted = DefaultTracerClock.now
            let outcome = MessageOutcome.of(
                m, compiler: compiler, tombstones: settings.tombstones, maxMessageBytes: settings.maxMessageBytes)
            if case .record(_, let diagnostics, _) = outcome {
                for d in diagnostics {
                    summary.diagnosticsByCode[d.code, default: 0] += 1
                    summary.diagnosticsByType[d.contentType, default: 0] += 1
                }
            }
            if let delivery {
                let span = tracer.start(m, at: compileStarted)
                switch outcome {
                case .record(let bytes, _, _):
                    delivery.send(
                        m, purpose: .record,
                        parts: [
                            .init(
                                topic: settings.toTopic!, key: m.key, value: bytes,
                                headers: LayoutWorker.recordHeaders(for: m, trace: span.headers, config: configHash))
                        ],
                        span: span)
                case .tombstone:
                    delivery.send(
                        m, purpose: .tombstone,
                        parts: [
                            .init(
                                topic: settings.toTopic!, key: m.key, value: nil,
                                headers: DeadLetter.carried(m, trace: span.headers))
                        ],
                        span: span)
                case .skip:
                    span.end(.skipped)
                    summary.partitions[i].skipped += 1
                    tracker.complete(topic: topic, partition: m.partition, offset: m.offset)
                case .deadLetter(let code, let reason):
                    delivery.deadLetter(m, code: code, reason: reason, span: span)
                }
            } else {
                // A dry run counts what each message would become.
                switch outcome {
                case .record: summary.partitions[i].compiled += 1
                case .tombstone: summary.partitions[i].tombstoned += 1
                case .skip: summary.partitions[i].skipped += 1
                case .deadLetter(let code, _):
                    summary.partitions[i].deadLettered += 1
                    summary.failuresByCode[code, default: 0] += 1
                }
                tracker.complete(topic: topic, partition: m.partition, offset: m.offset)
            }
            reportProgress(&lastProgress, summary: summary, read: read, total: total, started: started)
            if DispatchTime.now().uptimeNanoseconds - lastCheckpoint.uptimeNanoseconds > 1_000_000_000 {
                saveCheckpoint()
                lastCheckpoint = .now()
            }
        }
        summary.interrupted = status.stopRequested && finished.count < chosen.count
        if let delivery {
            // What is in flight is acknowledged (up to 30 s) even after an interrupt, so the checkpoint covers it; a
            // blocked output is then waited out (never dead-lettered) until it unblocks or the replay is interrupted.
            var settled = delivery.drain(until: DispatchTime.now() + .seconds(30))
            while !settled && delivery.blocked != nil && !status.stopRequested {
                settled = delivery.drain(until: DispatchTime.now() + .seconds(30), stop: { status.stopRequested })
            }
            if delivery.inFlightMessages > 0 {
                logger.warning(
                    "records still unacknowledged at exit; not checkpointed",
                    metadata: ["count": .stringConvertible(delivery.inFlightMessages)])
                delivery.abandonUnsettled("the replay ended before the outputs were acknowledged")
            }
        }
        saveCheckpoint()
        summary.elapsedSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return summary
    }

    private func reportProgress(
        _ last: inout DispatchTime, summary: ReplaySummary, read: Int, total: Int64, started: DispatchTime
    ) {
        guard
            Double(DispatchTime.now().uptimeNanoseconds - last.uptimeNanoseconds) / 1e9
                >= settings.progressIntervalSeconds
        else { return }
        last = .now()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
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
