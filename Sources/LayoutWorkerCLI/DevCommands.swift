import ArgumentParser
import Delivery
import Foundation
import Kafka
import LayoutDiff
import LayoutJSON
import LayoutService

/// `layout-worker create-topics`: creates topics (an existing topic is reported, not an error).
struct CreateTopicsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-topics", abstract: "Create topics on the brokers.")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Partitions per topic.") var partitions: Int32 = 3
    @Flag(help: "Compacted topics (cleanup.policy=compact), e.g. for latest layouts.") var compacted = false
    @Argument(help: "Topic names.") var topics: [String]

    func run() throws {
        let admin = try KafkaAdmin(configuration: try connection.resolve(defaultLevel: .warning).kafka)
        let config = compacted ? ["cleanup.policy": "compact"] : [:]
        let results = try admin.createTopics(topics.map { NewTopic(name: $0, partitions: partitions, config: config) })
        var failed = false
        for topic in topics {
            switch results[topic] {
            case .some(.some(let e)) where e.code == KafkaError.topicAlreadyExists: Output.line("\(topic): exists")
            case .some(.some(let e)):
                Output.error("\(topic): \(e)")
                failed = true
            default: Output.line("\(topic): created (\(partitions) partitions)")
            }
        }
        if failed { throw ExitCode(1) }
    }
}

/// `layout-worker produce`: publishes responses (one file per message, or NDJSON lines from stdin).
struct ProduceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "produce", abstract: "Publish responses to a topic (files, or NDJSON on stdin).")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Topic.") var topic: String
    @Option(help: "Message key (default: the file name, or stdin:LINE).") var key: String?
    @Flag(name: .customLong("tombstone"), help: "Publish one tombstone (null value) for --key instead.") var tombstone =
        false
    @Option(
        name: .customLong("max-input-bytes"), help: "Files or lines larger than this are refused.")
    var maxInputBytes = 64 * 1024 * 1024
    @Argument(help: "Files; none or '-' reads NDJSON from stdin.") var files: [String] = []

    func run() throws {
        var kafka = try connection.resolve(defaultLevel: .warning).kafka
        for (k, v) in ["linger.ms": "5", "message.max.bytes": "67108864"] where kafka.properties[k] == nil {
            kafka.properties[k] = v
        }
        let producer = try KafkaProducer(configuration: kafka)
        var messages: [(String, [UInt8]?)] = []
        if tombstone {
            guard let key else { throw ValidationError("--tombstone needs --key") }
            messages = [(key, nil)]
        } else if files.isEmpty || files == ["-"] {
            var refused: InputError?
            InputSource.forEachStandardInputLine(maxBytes: maxInputBytes) { line in
                switch line {
                case .success(let i): messages.append((i.name, i.bytes))
                case .failure(let e): refused = refused ?? e
                }
            }
            if let refused { throw ValidationError("\(refused.name): \(refused.message)") }
        } else {
            for f in files {
                switch InputSource.file(f, maxBytes: maxInputBytes) {
                case .success(let i): messages.append(((f as NSString).lastPathComponent, i.bytes))
                case .failure(let e): throw ValidationError("\(e.name): \(e.message)")
                }
            }
        }
        for (n, (name, value)) in messages.enumerated() {
            try producer.produce(topic: topic, key: Array((key ?? name).utf8), value: value, token: n)
        }
        let (reports, pending) = producer.flush(timeoutMs: 30_000)
        let failures = reports.filter { $0.error != nil }
        for f in failures { Output.error("message \(f.token): \(f.error!)") }
        Output.line("produced \(reports.count - failures.count) of \(messages.count) message(s) to \(topic)")
        if !failures.isEmpty || pending > 0 { throw ExitCode(1) }
    }
}

/// `layout-worker tail`: prints a topic's messages readably (layout records summarised, dead-letter headers shown).
struct TailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail", abstract: "Print messages of a topic from the beginning (every partition), or follow it.")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Topic.") var topic: String
    @Option(help: "Only these partitions, e.g. 0,3 (default: all, as the topic's metadata says).") var partitions:
        String?
    @Option(help: "Stop after this many messages (default 100; unlimited with --follow).") var count: Int?
    @Option(name: .customLong("timeout-ms"), help: "Stop when nothing arrives for this long (not with --follow).")
    var timeoutMs: Int = 3_000
    @Flag(help: "Keep printing new messages until interrupted.") var follow = false
    @Flag(help: "Print every header and each value in full.") var full = false

    func run() throws {
        let kafka = try connection.resolve(defaultLevel: .warning).kafka
        guard let all = try TopicRangeReader.partitions(of: topic, configuration: kafka) else {
            Output.error("topic \(topic) does not exist")
            throw ExitCode(1)
        }
        let chosen: [Int32]
        do {
            chosen = try TopicRangeReader.choose(try partitionList(), among: all, of: topic)
        } catch {
            throw ValidationError("--partitions: \(error)")
        }
        let reader = try TopicRangeReader(configuration: kafka, topic: topic, fetchWaitMs: 20)
        defer { reader.close() }
        try reader.read(chosen.map { .init(partition: $0, start: TopicPartition.beginning) })
        let limit = count ?? (follow ? Int.max : 100)
        var seen = 0
        var idle = DispatchTime.now()
        while seen < limit
            && (follow || DispatchTime.now().uptimeNanoseconds - idle.uptimeNanoseconds < UInt64(timeoutMs) * 1_000_000)
        {
            guard case .success(let m) = reader.next(timeoutMs: 100) else { continue }
            idle = DispatchTime.now()
            seen += 1
            Output.line(describe(m))
        }
        Output.line("\(seen) message(s) on \(topic) (\(chosen.count) of \(all.count) partitions)")
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

    /// Every header, one per line, values as text (bytes that are not UTF-8 shown escaped).
    func headerLines(_ m: KafkaMessage) -> String {
        m.headers.map { h in
            let name = h.name.unicodeScalars.map {
                $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : String($0)
            }.joined()
            return "\n  header \(name): " + (h.value.map { String(decoding: $0, as: UTF8.self) } ?? "null")
        }.joined()
    }

    func describe(_ m: KafkaMessage) -> String {
        let key = m.key.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        var line = "\(m.topic)[\(m.partition)]@\(m.offset) key=\(key)"
        if full { line += headerLines(m) }
        if let code = m.header(OutputHeader.errorCode) {
            line +=
                "\n  DEAD LETTER \(String(decoding: code, as: UTF8.self)): \(String(decoding: m.header(OutputHeader.errorMessage) ?? [], as: UTF8.self))"
            line +=
                "\n  from \(String(decoding: m.header(OutputHeader.sourceTopic) ?? [], as: UTF8.self))[\(String(decoding: m.header(OutputHeader.sourcePartition) ?? [], as: UTF8.self))]@\(String(decoding: m.header(OutputHeader.sourceOffset) ?? [], as: UTF8.self)), \(m.value?.count ?? 0) bytes"
            return line
        }
        guard let value = m.value else { return line + " TOMBSTONE" }
        if full { return line + "\n" + String(decoding: value, as: UTF8.self) }
        guard let doc = try? JSONReader().read(value) else { return line + " \(value.count) bytes" }
        if doc.value(0, "kind").flatMap(doc.string) == ChangeSet.kind {
            return line + describeChangeSet(doc, bytes: value.count)
        }
        guard let sections = doc.value(0, "sections") else { return line + " \(value.count) bytes" }
        line +=
            " layout record v\(doc.value(0, "version").flatMap(doc.int) ?? 0), \(doc.nodes[sections].count) sections, \(value.count) bytes"
        for s in doc.elements(sections) {
            guard doc.value(s, "visible").flatMap(doc.bool) == true else { continue }
            let type = doc.value(s, "type").flatMap(doc.string) ?? "?"
            let rows =
                doc.value(s, "rows").map {
                    doc.elements($0).compactMap { doc.value($0, "renderer").flatMap(doc.string) }
                } ?? []
            let counts = Dictionary(grouping: rows, by: { $0 }).map { "\($0.key)×\($0.value.count)" }.sorted().joined(
                separator: " ")
            let placeholder =
                doc.value(s, "placeholder").flatMap { doc.value($0, "kind") }.flatMap(doc.string).map { " [\($0)]" }
                ?? ""
            line += "\n  \(doc.value(s, "index").flatMap(doc.int) ?? 0) \(type)\(placeholder) \(counts)"
        }
        if let d = doc.value(0, "diagnostics"), doc.nodes[d].count > 0 {
            line +=
                "\n  diagnostics: "
                + doc.elements(d).compactMap { doc.value($0, "code").flatMap(doc.string) }.joined(separator: ", ")
        }
        return line
    }

    /// One line per change set: its base and target, and what it does to sections and rows.
    func describeChangeSet(_ doc: JSONDocument, bytes: Int) -> String {
        func count(_ list: Int?, _ name: JSONKey) -> Int {
            list.flatMap { doc.value($0, name) }.map { Int(doc.nodes[$0].count) } ?? 0
        }
        func hash(_ name: JSONKey) -> String {
            guard let id = doc.value(0, name), doc.kind(id) == .object else { return "empty" }
            return doc.value(id, "hash").flatMap(doc.string) ?? "?"
        }
        var line = " change set \(hash("base")) → \(hash("target")), \(bytes) bytes"
        guard let sections = doc.value(0, "sections") else { return line + " (whole record replaced)" }
        if doc.value(sections, "replace") != nil { return line + " (sections replaced whole)" }
        line +=
            "\n  sections: +\(count(sections, "inserts")) -\(count(sections, "deletes")) moved \(count(sections, "moves")) updated \(count(sections, "updates"))"
        var rows = (inserts: 0, deletes: 0, moves: 0, updates: 0, replaced: 0)
        for update in doc.value(sections, "updates").map({ Array(doc.elements($0)) }) ?? [] {
            guard let r = doc.value(update, "rows") else { continue }
            if doc.value(r, "replace") != nil { rows.replaced += 1; continue }
            rows.inserts += count(r, "inserts"); rows.deletes += count(r, "deletes"); rows.moves += count(r, "moves");
            rows.updates += count(r, "updates")
        }
        line += "; rows: +\(rows.inserts) -\(rows.deletes) moved \(rows.moves) updated \(rows.updates)"
        if rows.replaced > 0 { line += ", \(rows.replaced) lists replaced whole" }
        return line
    }
}
