import Delivery
import Foundation
import Kafka
import LayoutDiff
import LayoutJSON
import LayoutKit
import LayoutRecord
import Serve
import TestSupport
import Testing

@testable import ProcessTestSupport

/// Reads `source.key`, `source.offset` and the page name of a record.
private func facts(_ m: KafkaMessage) -> (key: String?, offset: Int?, partition: Int?, name: String?) {
    guard let v = m.value, let doc = try? JSONReader().read(v) else { return (nil, nil, nil, nil) }
    let source = doc.value(0, "source")
    let page = (try? FieldPath(parsing: "page.name"))?.resolve(in: doc, from: 0).flatMap(doc.string)
    return (
        source.flatMap { doc.value($0, "key") }.flatMap(doc.string),
        source.flatMap { doc.value($0, "offset") }.flatMap(doc.int),
        source.flatMap { doc.value($0, "partition") }.flatMap(doc.int), page
    )
}

@Suite(.serialized) struct ServeIntegrationTests {
    @Test func compilesEveryMessageAcrossPartitionsInOrderPerKey() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 3)
            var messages: [(key: String?, value: [UInt8]?)] = []
            for seq in 0..<10 {
                for key in 0..<6 { messages.append(("page-\(key)", emptyResultsList("page-\(key)/\(seq)"))) }
            }
            try broker.produce(input, messages)
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--stop-after", "60"])
            #expect(worker.wait(seconds: 60) == 0, "\(worker.logText)")
            let records = try broker.consume(output, partitions: 3, count: 60)
            #expect(records.count == 60)
            for r in records {
                #expect(SchemaValidator.layoutRecord.validate(r.value ?? []).isEmpty)
                #expect(
                    String(decoding: r.header(Wire.Header.contentType) ?? [], as: UTF8.self)
                        == Wire.recordContentType)
                #expect(r.header(Wire.Header.recordVersion) == Array(String(RecordOutline.formatVersion).utf8))
            }
            // Per key: records arrive in the order the responses were produced.
            var byKey: [String: [Int]] = [:]
            for r in records {
                let key = String(decoding: r.key ?? [], as: UTF8.self)
                let seq = facts(r).name.flatMap { $0.split(separator: "/").last }.flatMap { Int($0) }
                #expect(seq != nil)
                byKey[key, default: []].append(seq ?? -1)
            }
            #expect(byKey.count == 6)
            for (key, seqs) in byKey { #expect(seqs == Array(0..<10), "\(key): \(seqs)") }
            #expect(
                worker.stoppedCounts == [
                    "consumed": 60, "published": 60, "dead-lettered": 0, "skipped": 0, "in-flight": 0,
                ])
            #expect(
                try broker.committed(
                    group: worker.process.arguments![worker.process.arguments!.firstIndex(of: "--group")! + 1],
                    topic: input, partitions: 3
                ).values.reduce(0, +) == 60)
        }
    }

    @Test func badInputGoesToTheDeadLetterTopicWithItsReason() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            let huge =
                Array(#"{"@type":"X","pad":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 5_000)
                + Array(#""}"#.utf8)
            try broker.produce(
                input,
                [
                    ("good", emptyResultsList("ok")), ("garbage", Array("not json".utf8)),
                    ("array", Array("[1,2]".utf8)),
                    ("big", huge), ("good2", emptyResultsList("ok2")), ("empty", []),
                ])
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--stop-after", "6", "--max-message-bytes", "4096"])
            #expect(worker.wait(seconds: 60) == 0, "\(worker.logText)")
            let letters = try broker.consume(dlq, partitions: 1, count: 4)
            #expect(letters.count == 4)
            let codes = letters.map { String(decoding: $0.header(Wire.Header.errorCode) ?? [], as: UTF8.self) }
            #expect(codes == ["invalid-json", "not-assembler-response", "too-large", "invalid-json"])
            #expect(
                letters.map { String(decoding: $0.key ?? [], as: UTF8.self) } == ["garbage", "array", "big", "empty"])
            #expect(letters[3].value == [])  // empty, not null: kept as it came
            #expect(letters[0].value == Array("not json".utf8))
            #expect(letters[2].value == huge)
            #expect(
                String(decoding: letters[0].header(Wire.Header.errorMessage) ?? [], as: UTF8.self).contains("byte 0"))
            #expect(
                letters.map { String(decoding: $0.header(Wire.Header.sourceOffset) ?? [], as: UTF8.self) } == [
                    "1", "2", "3", "5",
                ])
            #expect(
                letters.allSatisfy {
                    $0.header(Wire.Header.sourceTopic) == Array(input.utf8)
                        && $0.header(Wire.Header.sourceTimestamp) != nil
                })
            #expect(letters.allSatisfy { $0.header(Wire.Header.workerVersion) != nil })
            #expect(try broker.consume(output, partitions: 1, count: 2).count == 2)
            #expect(
                worker.stoppedCounts == [
                    "consumed": 6, "published": 2, "dead-lettered": 4, "skipped": 0, "in-flight": 0,
                ])
        }
    }

    @Test(arguments: ["forward", "skip"])
    func tombstones(policy: String) async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            try broker.produce(input, [("page", emptyResultsList("p")), ("page", nil)])
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--stop-after", "2", "--tombstones", policy])
            #expect(worker.wait(seconds: 60) == 0, "\(worker.logText)")
            let out = try broker.consume(output, partitions: 1, count: policy == "forward" ? 2 : 1, timeout: 5)
            if policy == "forward" {
                #expect(out.count == 2)
                #expect(out.last?.value == nil && out.last?.key == Array("page".utf8))
                #expect(worker.stoppedCounts["published"] == 2)
            } else {
                #expect(out.count == 1)
                #expect(worker.stoppedCounts["skipped"] == 1)
            }
        }
    }

    @Test func sigtermDrainsCommitsAndLeavesWithinTheBound() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 2)
            try broker.produce(input, (0..<40).map { ("k\($0 % 4)", emptyResultsList("r\($0)")) })
            let worker = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: group)
            let records = try broker.consume(output, partitions: 2, count: 40)
            #expect(records.count >= 40)
            // Per input partition, how many messages it held (from the records' source facts).
            var held: [Int32: Int64] = [:]
            for r in records { if let p = facts(r).partition { held[Int32(p), default: 0] += 1 } }
            let start = Date()
            worker.signal(SIGTERM)
            let status = worker.wait(seconds: 10)
            #expect(status == 0, "\(worker.logText)")
            #expect(Date().timeIntervalSince(start) < 10)
            #expect(worker.logText.contains("partitions revoked"))
            let committed = try broker.committed(group: group, topic: input, partitions: 2)
            for (partition, count) in held { #expect(committed[partition] == count, "\(committed) vs \(held)") }
            #expect(
                worker.stoppedCounts == [
                    "consumed": 40, "published": 40, "dead-lettered": 0, "skipped": 0, "in-flight": 0,
                ])
        }
    }

    @Test func sigkillMidStreamLosesNothing() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 3)
            let big = Fixtures.bytes("samples/search-page.json")
            let chunks = 6, perChunk = 100, total = chunks * perChunk
            func chunk(_ c: Int) -> [(key: String?, value: [UInt8]?)] {
                (c * perChunk..<(c + 1) * perChunk).map {
                    ("k\($0 % 12)", $0 % 5 == 0 ? big : emptyResultsList("r\($0)"))
                }
            }
            // A steady stream: the first worker is killed while most of it has not been produced yet.
            try broker.produce(input, chunk(0))
            let first = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                extra: ["--batch-size", "16"])
            try broker.produce(input, chunk(1))
            let beforeKill = try broker.consume(output, partitions: 3, count: 1, timeout: 20).count
            first.signal(SIGKILL)
            _ = first.wait(seconds: 10)
            for c in 2..<chunks { try broker.produce(input, chunk(c)) }
            let second = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: group)
            var covered = Set<String>()
            var records: [KafkaMessage] = []
            let end = Date().addingTimeInterval(60)
            while covered.count < total && Date() < end {
                records = try broker.consume(output, partitions: 3, count: total, timeout: 3)
                covered = Set(records.compactMap { r in facts(r).offset.map { "\(facts(r).partition!):\($0)" } })
            }
            second.signal(SIGTERM)
            #expect(second.wait(seconds: 15) == 0)
            #expect(beforeKill >= 1)
            #expect(covered.count == total, "missing \(total - covered.count) inputs")
            let duplicates = records.count - covered.count
            print(
                "sigkill: killed after \(beforeKill)+ records with \(total - 2 * perChunk) inputs not yet produced; \(records.count) records for \(total) inputs, \(duplicates) duplicates"
            )
            #expect(duplicates >= 0)
        }
    }

    @Test func twoWorkersShareThePartitions() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 6)
            let a = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: group)
            let b = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: group)
            #expect(
                a.waitForLog("partitions assigned", seconds: 20) && b.waitForLog("partitions assigned", seconds: 20))
            // The group settles into its final split before anything is produced: three partitions each.
            let settled = waitUntil(seconds: 30, every: 0.1) {
                let (held, other) = (a.heldPartitions, b.heldPartitions)
                return held.count == 3 && other.count == 3 && held.isDisjoint(with: other)
            }
            #expect(settled, "a holds \(a.heldPartitions.sorted()), b \(b.heldPartitions.sorted())")
            try broker.produce(input, (0..<120).map { ("k\($0 % 24)", emptyResultsList("r\($0)")) })
            let records = try broker.consume(output, partitions: 6, count: 120, timeout: 40)
            a.signal(SIGTERM)
            b.signal(SIGTERM)
            #expect(a.wait(seconds: 15) == 0 && b.wait(seconds: 15) == 0)
            let covered = Set(records.compactMap { r in facts(r).offset.map { "\(facts(r).partition!):\($0)" } })
            #expect(covered.count == 120)
            let ca = a.stoppedCounts, cb = b.stoppedCounts
            #expect((ca["published"] ?? 0) > 0 && (cb["published"] ?? 0) > 0, "a: \(ca) b: \(cb)")
            #expect((ca["published"] ?? 0) + (cb["published"] ?? 0) >= 120)
        }
    }

    @Test func metricsHealthAndReadiness() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 2)
            try broker.produce(
                input, [("a", emptyResultsList("a")), ("b", Array("{".utf8)), ("c", nil), ("d", emptyResultsList("d"))])
            let port = try TestBroker.freePort()
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--tombstones", "skip"], http: "127.0.0.1:\(port)")
            #expect(try broker.consume(output, partitions: 2, count: 2).count == 2)
            #expect(try broker.consume(dlq, partitions: 2, count: 1).count == 1)
            func get(_ path: String) throws -> (Int, String) {
                let (data, response) = try syncGet(URL(string: "http://127.0.0.1:\(port)\(path)")!)
                return (response, String(decoding: data, as: UTF8.self))
            }
            func metric(_ name: String, in text: String) -> Int {
                text.split(separator: "\n").filter { $0.hasPrefix(name) }.compactMap {
                    Double($0.split(separator: " ").last!)
                }.reduce(0) { $0 + Int($1) }
            }
            // The tombstone is counted whenever the worker reaches it; wait (bounded) until all four are.
            var (code, text) = (0, "")
            try waitUntil(seconds: 10) {
                (code, text) = try get("/metrics")
                return metric("layout_worker_consumed_total", in: text) >= 4
            }
            #expect(try get("/healthz").0 == 200)
            #expect(try get("/readyz").0 == 200)
            #expect(code == 200)
            let consumed = metric("layout_worker_consumed_total", in: text),
                published = metric("layout_worker_published_total", in: text)
            let dead = metric("layout_worker_dead_lettered_total", in: text),
                skipped = metric("layout_worker_skipped_total", in: text)
            #expect(consumed == 4 && published == 2 && dead == 1 && skipped == 1, "\(text)")
            #expect(consumed == published + dead + skipped)
            #expect(text.contains("layout_worker_compile_seconds"))
            #expect(text.contains(#"layout_worker_dead_lettered_total{code="invalid-json"} 1"#))
            #expect(try get("/nope").0 == 404)
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 15) == 0)
        }
    }

    @Test func theBrokersSchemaRegistryValidatesEveryPublishedRecord() async throws {
        try await offThePool {
            let output = uniqueName("out")
            let schema = try JSONReader().read(Fixtures.bytes("schemas/layout-record.schema.json"))
            // Wrap the record schema as the topic's value schema; `$defs` sits both at the root and in the value
            // schema, so `#/$defs/...` resolves whether the broker compiles the value schema on its own or not.
            let defs = String(decoding: schema.raw(schema.value(0, "$defs")!), as: UTF8.self)
            let required = String(decoding: schema.raw(schema.value(0, "required")!), as: UTF8.self)
            let properties = String(decoding: schema.raw(schema.value(0, "properties")!), as: UTF8.self)
            let topicSchema =
                #"{"type":"object","properties":{"value":{"type":"object","required":\#(required),"additionalProperties":false,"properties":\#(properties),"$defs":\#(defs)}},"$defs":\#(defs)}"#
            let broker = try TestBroker(schemas: [output: topicSchema])
            let (input, dlq) = (uniqueName("in"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            // The registry is live: a value that is not a layout record is refused.
            #expect(throws: TestBrokerError.self) { try broker.produce(output, [("x", Array(#"{"version":2}"#.utf8))]) }
            let samples = Fixtures.samples
            try broker.produce(input, samples.map { ($0, Fixtures.bytes($0)) })
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--stop-after", String(samples.count)])
            #expect(worker.wait(seconds: 60) == 0, "\(worker.logText)")
            #expect(
                worker.stoppedCounts == [
                    "consumed": samples.count, "published": samples.count, "dead-lettered": 0, "skipped": 0,
                    "in-flight": 0,
                ])
            #expect(try broker.consume(output, partitions: 1, count: samples.count).count == samples.count)
        }
    }
}

@Suite(.serialized) struct ServeConfigurationTests {
    @Test func environmentAndSettingsFileConfigureServeAndFlagsWin() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, wrongOutput) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("wrong")
            )
            try broker.createTopics([input, output, dlq, wrongOutput], partitions: 1)
            try broker.produce(input, [("a", emptyResultsList("a")), ("b", nil)])
            let settings = broker.workDirectory.appendingPathComponent("settings.yaml")
            try """
            dead-letter: \(dlq)
            tombstones: skip
            consumer-property: [session.timeout.ms=2000, heartbeat.interval.ms=300, fetch.wait.max.ms=10]
            output: \(wrongOutput)
            """.write(to: settings, atomically: true, encoding: .utf8)
            // The output topic comes from the environment (over the file), the input from the environment, and the
            // stop count from a flag; everything else from the file.
            let process = layoutWorkerProcess(
                ["serve", "--settings", settings.path, "--stop-after", "2", "--http", "off"],
                environment: [
                    "LAYOUT_WORKER_BROKERS": broker.address, "LAYOUT_WORKER_INPUT": input,
                    "LAYOUT_WORKER_OUTPUT": output,
                    "LAYOUT_WORKER_GROUP": uniqueName("g"),
                    "LAYOUT_WORKER_CONFIG": Fixtures.path("config/default.yaml"),
                ])
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            let err = Pipe()
            process.standardError = err
            try process.run()
            let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(log)")
            #expect(try broker.consume(output, partitions: 1, count: 1, timeout: 5).count == 1)
            #expect(try broker.consume(wrongOutput, partitions: 1, count: 1, timeout: 2).isEmpty)
            #expect(log.contains("skipped=1"))  // tombstones: skip, from the file
        }
    }
}
