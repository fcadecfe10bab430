import Foundation
import Kafka
import LayoutJSON
import Serve
import TestSupport
import Testing

@testable import ProcessTestSupport

/// (partition, offset) of each record's source.
private func sources(_ records: [KafkaMessage]) -> [String] {
    records.compactMap { r in
        guard let v = r.value, let doc = try? JSONReader().read(v), let s = doc.value(0, "source"),
            let p = doc.value(s, "partition").flatMap(doc.int), let o = doc.value(s, "offset").flatMap(doc.int)
        else { return nil }
        return "\(p):\(o)"
    }
}

private func summary(_ json: String) throws -> JSONDocument { try JSONReader().read(Array(json.utf8)) }

@Suite(.serialized) struct ReplayIntegrationTests {
    /// A broker with `perPartition` records on each of 3 partitions of a new input topic.
    private func setUp(perPartition: Int = 10) throws -> (TestBroker, String, String) {
        let broker = try TestBroker()
        let (input, output) = (uniqueName("in"), uniqueName("out"))
        try broker.createTopics([input, output, output + ".dead-letters"], partitions: 3)
        for p in Int32(0)..<3 {
            try broker.produce(
                input, (0..<perPartition).map { ("k\(p)", emptyResultsList("p\(p)-\($0)")) }, partition: p)
        }
        return (broker, input, output)
    }

    @Test func offsetRangesPartitionSubsetsAndPerPartitionStarts() async throws {
        try await offThePool {
            let (broker, input, output) = try setUp()
            let r1 = try runCLI([
                "replay", "--brokers", broker.address, "--input", input, "--start", "offset:2", "--stop", "offset:7",
                "--output", output, "--format", "json",
            ])
            #expect(r1.status == 0, "\(r1.err)")
            let got = Set(sources(try broker.consume(output, partitions: 3, count: 15, timeout: 10)))
            #expect(got == Set((0..<3).flatMap { p in (2..<7).map { "\(p):\($0)" } }))
            let s = try summary(r1.out)
            #expect((try FieldPath(parsing: "partitions[1].first")).resolve(in: s, from: 0).flatMap(s.int) == 2)
            #expect((try FieldPath(parsing: "partitions[1].last")).resolve(in: s, from: 0).flatMap(s.int) == 6)

            let out2 = uniqueName("out2")
            try broker.createTopics([out2], partitions: 3)
            let r2 = try runCLI([
                "replay", "--brokers", broker.address, "--input", input, "--partitions", "0,2", "--start", "0:7",
                "--output", out2,
            ])
            #expect(r2.status == 0, "\(r2.err)")
            #expect(
                Set(sources(try broker.consume(out2, partitions: 3, count: 13, timeout: 10)))
                    == Set((7..<10).map { "0:\($0)" } + (0..<10).map { "2:\($0)" }))
            #expect(r2.out.contains("partition 0: range 7..<10, read 7...9, compiled 3"))
        }
    }

    @Test func dryRunProducesNothingAndReportsDiagnostics() async throws {
        try await offThePool {
            let (broker, input, output) = try setUp(perPartition: 2)
            try broker.produce(
                input,
                [
                    ("bad", Array(#"{"@type":"ResultsList","records":"soon"}"#.utf8)), ("worse", Array("nope".utf8)),
                    ("gone", nil),
                ],
                partition: 0)
            let r = try runCLI([
                "replay", "--brokers", broker.address, "--input", input, "--dry-run", "--format", "json",
            ])
            #expect(r.status == 0, "\(r.err)")
            let s = try summary(r.out)
            // Partition 0: two pages and the unreadable one compiled, one dead letter, the tombstone counted as such.
            func count(_ path: String) -> Int? {
                (try? FieldPath(parsing: path))?.resolve(in: s, from: 0).flatMap(s.int)
            }
            #expect(count("partitions[0].compiled") == 3 && count("partitions[0].tombstoned") == 1)
            #expect(count("partitions[0].deadLettered") == 1)
            #expect(
                (try FieldPath(parsing: #"diagnosticsByCode["rows-unreadable"]"#)).resolve(in: s, from: 0).flatMap(
                    s.int)
                    == 1)
            #expect(
                (try FieldPath(parsing: "diagnosticsByType.ResultsList")).resolve(in: s, from: 0).flatMap(s.int) == 1)
            #expect(
                (try FieldPath(parsing: #"failuresByCode["invalid-json"]"#)).resolve(in: s, from: 0).flatMap(s.int) == 1
            )
            #expect(try broker.consume(output, partitions: 3, count: 1, timeout: 2).isEmpty)
            #expect(try broker.consume(output + ".dead-letters", partitions: 3, count: 1, timeout: 2).isEmpty)
        }
    }

    /// After a batch of three records the test broker's high watermark says 1; replay and offsets take the end a
    /// fetch finds, so neither reads or shows less than the partition holds.
    @Test func aBatchOfThreeIsReadWhole() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let input = uniqueName("in")
            try broker.createTopics([input], partitions: 1)
            try broker.produce(
                input, (0..<3).map { ("k\($0)", emptyResultsList("p0-\($0)")) }, partition: 0, oneBatch: true)
            let probe = try KafkaConsumer(configuration: broker.configuration, groupID: nil)
            let watermark = try probe.queryWatermarks(topic: input, partition: 0).high
            probe.close()
            #expect(watermark < 3, "the broker's watermark is \(watermark): this test needs one that under-reports")

            // The flags' former names (`--from-topic`, `--json`) still work, each with a warning naming the new one.
            let r = try runCLI(["replay", "--brokers", broker.address, "--from-topic", input, "--dry-run", "--json"])
            #expect(r.status == 0, "\(r.err)")
            #expect(r.err.contains(#""old":"--from-topic""#) && r.err.contains(#""new":"--input""#), "\(r.err)")
            #expect(r.err.contains(#""old":"--json""#) && r.err.contains(#""new":"--format json""#), "\(r.err)")
            let s = try summary(r.out)
            #expect(
                (try FieldPath(parsing: "partitions[0].compiled")).resolve(in: s, from: 0).flatMap(s.int) == 3,
                "\(r.out)")
            let shown = try runCLI([
                "offsets", "--brokers", broker.address, "--group", uniqueName("g"), "--topic", input,
            ])
            #expect(shown.out.contains("partition 0: committed none, end 3, lag 3"), "\(shown.out)\(shown.err)")
        }
    }

    @Test func anInterruptedReplayResumesFromItsCheckpoint() async throws {
        try await offThePool {
            let (broker, input, output) = try setUp(perPartition: 20)
            let checkpoint = broker.workDirectory.appendingPathComponent("replay.checkpoint").path
            let args = [
                "replay", "--brokers", broker.address, "--input", input, "--output", output, "--checkpoint",
                checkpoint,
            ]
            // Interrupted once its first record is on the output topic (not after a fixed delay: a loaded machine may not
            // have started the replay, or installed its signal handler, by then). 5/s keeps the 60 records from all being
            // done in the time it takes to see that first one.
            let first = try runCLI(args + ["--rate", "5"]) { _ in
                _ = try #require(try broker.consume(output, partitions: 3, count: 1, timeout: 30).first)
            }
            #expect(first.status == 130, "\(first.err)")
            #expect(first.out.contains("INTERRUPTED"))
            #expect(FileManager.default.fileExists(atPath: checkpoint))
            let firstCount = try broker.consume(output, partitions: 3, count: 60, timeout: 2).count
            #expect(firstCount > 0 && firstCount < 60)
            let second = try runCLI(args)
            #expect(second.status == 0, "\(second.err)")
            let records = try broker.consume(output, partitions: 3, count: 60, timeout: 10)
            let covered = Set(sources(records))
            #expect(covered.count == 60)
            print(
                "replay resume: \(firstCount) records before the interrupt, \(records.count) in all, \(records.count - covered.count) duplicates"
            )
            #expect(records.count - covered.count <= 1)  // only what was in flight at the interrupt
        }
    }

    /// docs/backfills.md's sequence: a dry run with the checkpoint, then the real run. The dry run writes no checkpoint,
    /// so the real run replays everything; the same checkpoint with another output or start is refused, naming it.
    @Test func aDryRunsCheckpointDoesNotCancelTheBackfill() async throws {
        try await offThePool {
            let (broker, input, output) = try setUp(perPartition: 4)
            let checkpoint = broker.workDirectory.appendingPathComponent("dry.checkpoint").path
            let base = ["replay", "--brokers", broker.address, "--input", input, "--checkpoint", checkpoint]
            let dry = try runCLI(base + ["--dry-run"])
            #expect(dry.status == 0, "\(dry.err)")
            #expect(dry.err.contains("--dry-run neither reads nor writes the checkpoint"), "\(dry.err)")
            #expect(!FileManager.default.fileExists(atPath: checkpoint), "a dry run wrote the checkpoint")
            let real = try runCLI(base + ["--output", output])
            #expect(real.status == 0, "\(real.err)")
            #expect(Set(sources(try broker.consume(output, partitions: 3, count: 12, timeout: 10))).count == 12)
            let other = uniqueName("other")
            try broker.createTopics([other], partitions: 3)
            let intoOther = try runCLI(base + ["--output", other])
            #expect(intoOther.status == 1)
            #expect(
                intoOther.err.contains(
                    "checkpoint \(checkpoint) was written by a replay of \(input) into \(output), not \(other)"),
                "\(intoOther.err)")
            let fromElsewhere = try runCLI(base + ["--output", output, "--start", "offset:2"])
            #expect(fromElsewhere.status == 1)
            #expect(fromElsewhere.err.contains("--start beginning, not offset:2"), "\(fromElsewhere.err)")
            let again = try runCLI(base + ["--output", output])
            #expect(again.status == 0, "\(again.err)")
            #expect(again.err.contains("nothing left to read"), "\(again.err)")
        }
    }

    @Test func theLiveGroupIsUntouched() async throws {
        try await offThePool {
            let (broker, input, output) = try setUp(perPartition: 5)
            let group = uniqueName("live")
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: output + ".dead-letters", group: group,
                extra: ["--stop-after", "15"])
            #expect(worker.wait(seconds: 60) == 0)
            let before = try broker.committed(group: group, topic: input, partitions: 3)
            let backfill = uniqueName("backfill")
            try broker.createTopics([backfill], partitions: 3)
            let r = try runCLI(["replay", "--brokers", broker.address, "--input", input, "--output", backfill])
            #expect(r.status == 0)
            #expect(try broker.consume(backfill, partitions: 3, count: 15).count == 15)
            #expect(try broker.committed(group: group, topic: input, partitions: 3) == before)
            #expect(before.values.allSatisfy { $0 == 5 })
        }
    }

    @Test func theRateLimitIsHonoured() async throws {
        try await offThePool {
            let (broker, input, output) = try setUp(perPartition: 14)  // 42 records
            let r = try runCLI([
                "replay", "--brokers", broker.address, "--input", input, "--output", output, "--rate", "20/s",
                "--format", "json",
            ])
            #expect(r.status == 0)
            // 42 records at 20/s: the last is due 2.1 s after reading starts. Not sooner than 80% of that, and under 1.8× of
            // it: room for a loaded machine, while half the rate (4.2 s) still fails.
            let s = try summary(r.out)
            let elapsed = try #require(s.value(0, "readSeconds").flatMap(s.double))
            print("replay rate: 42 records at 20/s read in \(String(format: "%.2f", elapsed)) s")
            #expect(elapsed >= 2.1 * 0.8 && elapsed < 2.1 * 1.8)
        }
    }

    @Test func aTimeRangeStartsAtTheFirstRecordAtOrAfterIt() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output) = (uniqueName("in"), uniqueName("out"))
            try broker.createTopics([input, output], partitions: 1)
            try broker.produce(input, (0..<5).map { ("early", emptyResultsList("early\($0)")) })
            // Timestamps are the producer's (taken before `produce` returns) in milliseconds: 0.2 s sets them apart.
            Thread.sleep(forTimeInterval: 0.2)
            let boundary = Date()
            Thread.sleep(forTimeInterval: 0.2)
            try broker.produce(input, (0..<4).map { ("late", emptyResultsList("late\($0)")) })
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let r = try runCLI([
                "replay", "--brokers", broker.address, "--input", input, "--start", "time:" + f.string(from: boundary),
                "--output", output,
            ])
            #expect(r.status == 0, "\(r.err)")
            let got = try broker.consume(output, partitions: 1, count: 4, timeout: 10)
            #expect(Set(sources(got)) == Set((5..<9).map { "0:\($0)" }))
            // A start after the last record replays nothing rather than rewinding (the broker's answer is checked).
            let later = try runCLI([
                "replay", "--brokers", broker.address, "--input", input, "--start",
                "time:" + f.string(from: Date().addingTimeInterval(3600)),
                "--dry-run",
            ])
            #expect(later.status == 0 || later.err.contains("refusing to use a wrong offset"), "\(later.err)")
            #expect(!later.out.contains("compiled 9"))
        }
    }
}

@Suite(.serialized) struct OffsetsCommandTests {
    @Test func showsLagAndResetsOnlyAnEmptyGroup() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output) = (uniqueName("in"), uniqueName("out"))
            try broker.createTopics([input, output, output + ".dead-letters"], partitions: 2)
            for p in Int32(0)..<2 {
                try broker.produce(input, (0..<4).map { ("k", emptyResultsList("r\($0)")) }, partition: p)
            }
            let group = uniqueName("g")
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: output + ".dead-letters", group: group)
            #expect(try broker.consume(output, partitions: 2, count: 8).count == 8)
            // The worker commits every second; wait for it (bounded) rather than for a fixed time.
            try waitUntil(seconds: 20, every: 0.25) {
                try broker.committed(group: group, topic: input, partitions: 2) == [0: 4, 1: 4]
            }
            let show = try runCLI(["offsets", "--brokers", broker.address, "--group", group, "--topic", input])
            #expect(show.status == 0, "\(show.err)")
            #expect(show.out.contains("partition 0: committed 4, end 4, lag 0"))
            #expect(show.out.contains("1 member(s)"))
            let dry = try runCLI([
                "offsets", "--brokers", broker.address, "--group", group, "--topic", input, "--reset", "beginning",
            ])
            #expect(dry.status == 0 && dry.out.contains("would set to 0") && dry.out.contains("dry run"))
            let refused = try runCLI([
                "offsets", "--brokers", broker.address, "--group", group, "--topic", input, "--reset", "beginning",
                "--execute",
            ])
            #expect(refused.status == 1)
            #expect(refused.err.contains("has 1 member(s)"))
            #expect(try broker.committed(group: group, topic: input, partitions: 2) == [0: 4, 1: 4])
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 15) == 0)
            let applied = try runCLI([
                "offsets", "--brokers", broker.address, "--group", group, "--topic", input, "--reset", "offset:1",
                "--execute",
            ])
            #expect(applied.status == 0, "\(applied.err)")
            #expect(try broker.committed(group: group, topic: input, partitions: 2) == [0: 1, 1: 1])
        }
    }
}

@Suite(.serialized) struct ReplayFollowTests {
    @Test func followKeepsTailingUntilInterrupted() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output) = (uniqueName("in"), uniqueName("out"))
            try broker.createTopics([input, output], partitions: 1)
            try broker.produce(input, (0..<3).map { ("k", emptyResultsList("before\($0)")) })
            let process = layoutWorkerProcess([
                "replay", "--brokers", broker.address, "--input", input, "--output", output, "--follow",
            ])
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            try process.run()
            #expect(try broker.consume(output, partitions: 1, count: 3, timeout: 10).count == 3)
            try broker.produce(input, (0..<2).map { ("k", emptyResultsList("after\($0)")) })
            #expect(
                Set(sources(try broker.consume(output, partitions: 1, count: 5, timeout: 10)))
                    == Set((0..<5).map { "0:\($0)" }))
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            #expect(process.terminationStatus == 130)
        }
    }

    /// `replay --http`: the ops paths answer while it runs (a Kubernetes Job's probes and scrape), with its counts.
    @Test func followServesTheOpsPaths() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output) = (uniqueName("in"), uniqueName("out"))
            try broker.createTopics([input, output], partitions: 1)
            try broker.produce(input, (0..<3).map { ("k", emptyResultsList("before\($0)")) })
            let port = Int(try TestBroker.freePort())
            let process = layoutWorkerProcess([
                "replay", "--brokers", broker.address, "--input", input, "--output", output, "--follow",
                "--http", "127.0.0.1:\(port)",
            ])
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            #expect(try broker.consume(output, partitions: 1, count: 3, timeout: 10).count == 3)
            func get(_ path: String) -> (status: Int, body: String)? {
                (try? RawHTTP.get(port, path)).map { ($0.status, String(decoding: $0.body, as: UTF8.self)) }
            }
            var metrics = ""
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                metrics = get("/metrics")?.body ?? ""
                if metrics.contains("layout_replay_settled_total{result=\"published\"} 3") { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(metrics.contains("layout_replay_settled_total{result=\"published\"} 3"), "\(metrics)")
            #expect(metrics.contains("layout_replay_settled_total{result=\"dead-lettered\"} 0"))
            #expect(metrics.contains("layout_replay_read_total 3"))
            #expect(metrics.contains("layout_replay_remaining_messages -1"))
            #expect(metrics.contains("# HELP layout_replay_read_total Messages of the replayed range read."))
            #expect(metrics.contains("layout_worker_build_info{"))
            let ready = get("/readyz")
            #expect(ready?.status == 200 && ready?.body == "replaying; 3 of ∞ read\n", "\(String(describing: ready))")
            #expect(get("/healthz")?.status == 200)
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            #expect(process.terminationStatus == 130)
            #expect(get("/healthz") == nil, "the endpoints stop with the replay")
        }
    }
}
