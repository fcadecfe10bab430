import Foundation
import Kafka
import LayoutJSON
import Synchronization
import TestSupport
import Testing

@testable import ProcessTestSupport

@Suite(.serialized) struct FaultTests {
    /// The memory broker loses everything on restart: the worker reconnects by itself and serves the recreated topics.
    /// The topics are recreated only after the worker has seen them gone (its subscription revoked), the harder of the
    /// two orders; a subscribed topic that reappears is found at the next metadata refresh, shortened here to 1 s
    /// (librdkafka's default is 5 minutes; topics of a real cluster do not vanish and come back). The worker's producer
    /// must not re-create the output topic by asking for its metadata (Tansu creates requested topics, with its own
    /// partition count): that raced the test's re-creation and won on a loaded CI machine.
    @Test func brokerRestartMidStream() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            try broker.produce(input, (0..<5).map { ("k\($0)", emptyResultsList("before-\($0)")) })
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: [
                    "--producer-stall-ms", "5000",
                    "--kafka-property", "topic.metadata.refresh.interval.ms=1000",
                    "--producer-property", "allow.auto.create.topics=false",
                ])
            #expect(try broker.consume(output, partitions: 1, count: 5, timeout: 60).count == 5)
            try broker.restart()
            #expect(worker.waitForLog("Subscribed topic not available", seconds: 60), "\(worker.logText.suffix(3000))")
            try broker.createTopics([input, output, dlq], partitions: 1)
            // The worker's last commit (offset 5) can reach the fresh broker before the group is gone, and this broker
            // never reports an out-of-range offset (test-broker.md §4), so the group may resume at 5 instead of 0:
            // offsets 5–9 are served either way.
            try broker.produce(input, (0..<10).map { ("k\($0)", emptyResultsList("after-\($0)")) })
            let expected = Set((5..<10).map { "after-\($0)" })
            var names: [String] = []
            let deadline = Date().addingTimeInterval(90)
            while Date() < deadline && !expected.isSubset(of: Set(names)) {
                names = pageNames(try broker.consume(output, partitions: 1, count: 10, timeout: 5)).filter {
                    $0.hasPrefix("after-")
                }
            }
            #expect(
                expected.isSubset(of: Set(names)),
                "after the restart: \(names)\n\(worker.logText.suffix(3000))")
            #expect(worker.process.isRunning, "the worker must survive the broker restart without a restart of its own")
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 20) == 0)
        }
    }

    /// A poison message at the head of the partition, then an output topic that refuses some records (the broker's
    /// schema registry): refused records are dead-lettered, never skipped, and offsets are committed only past them.
    @Test func refusedRecordsAreDeadLetteredNotSkipped() async throws {
        try await offThePool {
            let output = uniqueName("out")
            // The registry's schema file describes the record: its `value` here.
            let schema =
                #"{"type":"object","properties":{"value":{"type":"object","required":["page"],"properties":{"page":{"type":"object","properties":{"name":{"not":{"const":"refuse-me"}}}}}}}}"#
            let broker = try TestBroker(schemas: [output: schema])
            let (input, dlq, group) = (uniqueName("in"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            var messages: [(key: String?, value: [UInt8]?)] = [("poison", Array("{\"@type\": [".utf8))]
            for n in 0..<60 { messages.append(("k\(n)", emptyResultsList(n % 10 == 3 ? "refuse-me" : "ok-\(n)"))) }
            try broker.produce(input, messages)
            // One record per produce request, so the registry refuses exactly the bad record and not its whole batch.
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                extra: ["--stop-after", "61", "--producer-property", "batch.num.messages=1"])
            #expect(worker.wait(seconds: 90) == 0, "\(worker.logText.suffix(3000))")
            let published = try broker.consume(output, partitions: 1, count: 54)
            let letters = try broker.consume(dlq, partitions: 1, count: 7)
            #expect(published.count == 54 && !pageNames(published).contains("refuse-me"))
            #expect(letters.count == 7)
            let codes = letters.map { String(decoding: $0.header("layout-worker-error-code") ?? [], as: UTF8.self) }
            #expect(
                codes.filter { $0 == "invalid-json" }.count == 1 && codes.filter { $0 == "produce-failed" }.count == 6,
                "\(codes)")
            #expect(letters.first?.key == Array("poison".utf8))
            let reason = String(decoding: letters.last?.header("layout-worker-error-message") ?? [], as: UTF8.self)
            #expect(reason.contains(output) && reason.contains("INVALID_RECORD"), "\(reason)")
            #expect(try broker.committed(group: group, topic: input, partitions: 1)[0] == 61)
            #expect(
                worker.stoppedCounts["consumed"] == 61 && worker.stoppedCounts["published"] == 54
                    && worker.stoppedCounts["dead-lettered"] == 7)
        }
    }

    /// A backlog 15× --max-in-flight: fetching pauses and resumes, in-flight stays bounded, nothing is lost.
    @Test func backlogPausesAndResumesWithBoundedInFlight() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 3)
            try broker.produce(input, (0..<120).map { ("k\($0 % 17)", emptyResultsList("m\($0)")) })
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--stop-after", "120", "--max-in-flight", "8", "--batch-size", "4", "--log-level", "debug"])
            #expect(worker.wait(seconds: 90) == 0, "\(worker.logText.suffix(2000))")
            let entries = worker.logEntries
            let paused = entries.filter { $0["message"] as? String == "paused fetching" }
            let resumed = entries.filter { $0["message"] as? String == "resumed fetching" }
            #expect(paused.count >= 5 && resumed.count >= 5, "paused \(paused.count)×, resumed \(resumed.count)×")
            // Pausing happens at the limit; a batch already fetched can add at most one batch on top.
            let peaks = paused.compactMap { $0["in-flight"] as? Int }
            #expect(!peaks.isEmpty && peaks.allSatisfy { $0 <= 8 + 4 }, "\(peaks)")
            #expect(worker.stoppedCounts["consumed"] == 120 && worker.stoppedCounts["published"] == 120)
            #expect(Set(recordSources(try broker.consume(output, partitions: 3, count: 120))).count == 120)
        }
    }
}
