import ArgumentParser
import Foundation
import Kafka
import LayoutJSON
import Ops
import Replay

/// `layout-worker tail`: a topic's messages, like kcat: from a position or a time, one key only if asked, printed
/// readably (layout records summarised, dead-letter headers shown), as bare values (one per line, to pipe into
/// `apply` or `jq`) or as NDJSON with every field. The count goes to stderr, never into the data.
struct TailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail", abstract: "Print messages of a topic from the beginning (every partition), or follow it.",
        discussion: """
            --start: beginning | offset:N | P:N,P:N... | time:ISO8601 | ago:DURATION (as replay takes it). \
            --format summary (default) describes each message; value prints each value on one line (tombstones \
            skipped); json prints one object per message (NDJSON): topic, partition, offset, timestamp (ms), key, \
            headers [{name, value}] and value, as strings or null.
            """)

    /// `json` is one object per message (NDJSON); `ndjson`, its former name, is still taken.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case summary, value, json

        init?(argument: String) {
            self.init(rawValue: argument == "ndjson" ? "json" : argument)
        }
    }

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Topic.") var topic: String
    @Option(help: "Only these partitions, e.g. 0,3 (default: all, as the topic's metadata says).") var partitions:
        String?
    @Option(help: "Only messages with this key.") var key: String?
    @Option(help: "Where to start on every partition (see below).") var start: String = "beginning"
    @Option(help: "Stop after this many messages printed (default 100; unlimited with --follow).") var count: Int?
    @Option(name: .customLong("timeout-ms"), help: "Stop when nothing arrives for this long (not with --follow).")
    var timeoutMs: Int = 3_000
    @Flag(help: "Keep printing new messages until interrupted.") var follow = false
    @Option(help: "summary, value or json (one object per message).") var format: Format = .summary
    @Flag(help: "With the summary format: every header and each value in full.") var full = false

    func run() throws {
        let from: ReplayRange.Start
        do {
            from = try ReplayRange.parseStart(start, now: Date())
        } catch {
            throw ValidationError("--start: \(error)")
        }
        let kafka = try connection.resolve(defaultLevel: .warning).kafka
        guard let all = try TopicRangeReader.partitions(of: topic, configuration: kafka) else {
            throw missingTopic(topic)
        }
        let chosen: [Int32]
        do {
            chosen = try TopicRangeReader.choose(try partitionList(), among: all, of: topic)
        } catch {
            throw ValidationError("--partitions: \(error)")
        }
        let reader = try TopicRangeReader(configuration: kafka, topic: topic, fetchWaitMs: 20)
        defer { reader.close() }
        let times = TimeLookup(kafka: kafka, topic: topic)
        let extents = try reader.extents(chosen)
        try reader.read(
            try chosen.map { p in
                let (low, high) = (extents[p]?.low ?? 0, extents[p]?.end ?? 0)
                return .init(
                    partition: p,
                    start: try from.offset(partition: p, low: low, high: high, times: times, reader: reader))
            })
        let (read, printed) = try print(from: reader)
        let matched = key.map { " (\(printed) with key \(MessageSummary.escaped($0)))" } ?? ""
        Output.error("\(read) message(s) read on \(topic)\(matched), \(chosen.count) of \(all.count) partitions")
    }

    /// Prints messages until the count, the idle timeout or an interrupt; how many were read and printed.
    private func print(from reader: TopicRangeReader) throws -> (read: Int, printed: Int) {
        let wanted = key.map { Array($0.utf8) }
        let limit = count ?? (follow ? Int.max : 100)
        let summary = MessageSummary(full: full)
        var (read, printed) = (0, 0)
        var quiet = Periodic(every: .milliseconds(timeoutMs))
        while printed < limit && (follow || !quiet.hasElapsed()) {
            guard case .success(let m) = reader.next(timeoutMs: 100) else { continue }
            quiet.taken()
            read += 1
            if let wanted, m.key != wanted { continue }
            switch format {
            case .summary: Output.line(summary.describe(m))
            case .value:
                guard let value = m.value else { continue }  // a tombstone has no value to print
                Output.outLine(value)
            case .json: Output.outLine(Self.ndjson(m))
            }
            printed += 1
        }
        return (read, printed)
    }

    /// One message as a JSON object (bytes that are not UTF-8 replaced by U+FFFD).
    static func ndjson(_ m: KafkaMessage) -> [UInt8] {
        let text = { (bytes: [UInt8]?) in bytes.map { String(decoding: $0, as: UTF8.self) } }
        return JSONWriter.bytes(capacity: (m.value?.count ?? 0) + 256) { w in
            w.beginObject()
            w.key("topic")
            w.string(m.topic)
            w.key("partition")
            w.int(Int(m.partition))
            w.key("offset")
            w.int(Int(m.offset))
            w.key("timestamp")
            if let t = m.timestamp { w.int(Int(t)) } else { w.null() }
            w.key("key")
            w.string(orNull: text(m.key))
            w.key("headers")
            w.beginArray()
            for h in m.headers {
                w.beginObject()
                w.key("name")
                w.string(h.name)
                w.key("value")
                w.string(orNull: text(h.value))
                w.endObject()
            }
            w.endArray()
            w.key("value")
            w.string(orNull: text(m.value))
            w.endObject()
        }
    }

    /// `--partitions` as numbers (nil: all).
    private func partitionList() throws -> [Int32]? {
        try partitions?.split(separator: ",").map {
            guard let p = Int32($0.trimmingCharacters(in: .whitespaces)), p >= 0 else {
                throw ValidationError("--partitions takes numbers like 0,3, not '\($0)'")
            }
            return p
        }
    }
}
