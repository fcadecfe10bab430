import Foundation
import Kafka
import LayoutJSON
import Synchronization
import TestSupport
import Testing

@testable import ProcessTestSupport

private func header(_ m: KafkaMessage, _ name: String) -> String? {
    m.header(name).map { String(decoding: $0, as: UTF8.self) }
}

/// The service's central promise, tried as a platform team would: no message, header or broker hiccup stops a
/// partition; bad input is dead-lettered, valid input is published once the cluster takes it, counts add up.
@Suite(.serialized) struct PartitionNeverStopsTests {
    let consumerFlags = [
        "--consumer-property", "session.timeout.ms=2000", "--consumer-property", "heartbeat.interval.ms=300",
    ]
    /// A producer that may not create topics and gives up on a missing one after 1 s (librdkafka's default is 30 s),
    /// so a missing topic fails deliveries within a second and the worker's retry rounds can be counted.
    let missingTopicFlags = [
        "--producer-property", "allow.auto.create.topics=false",
        "--producer-property", "topic.metadata.propagation.max.ms=1000",
    ]

    /// Waits until the worker serving `/metrics` on `port` has sent its waiting outputs again in `rounds` separate
    /// rounds (`layout_worker_produce_retries_total` seen growing that many times) and is still running.
    func waitForRetryRounds(_ rounds: Int, of worker: WorkerProcess, port: UInt16) {
        var seen: [Double] = []
        let done = waitUntil(seconds: 60, every: 0.2) {
            let retries = (try? scrapedMetric(port: port, "layout_worker_produce_retries_total")) ?? 0
            if retries > (seen.last ?? 0) { seen.append(retries) }
            return seen.count >= rounds
        }
        #expect(done, "retries seen: \(seen)\n\(worker.logText.suffix(2000))")
        #expect(worker.process.isRunning, "\(worker.logText.suffix(2000))")
    }

    /// The 170-byte response that crash-looped the worker, and its family of extreme numbers in every paging field:
    /// each is compiled or dead-lettered, the worker never dies, and the partition is committed past all of them.
    @Test func extremeNumbersNeverStopThePartition() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            let (changes, latest) = (uniqueName("changes"), uniqueName("latest"))
            try broker.createTopics([input, output, dlq, changes, latest], partitions: 1)
            let overflow =
                #"{"@type":"ResultsList","recsPerPage":10,"totalNumRecs":9223372036854775807,"firstRecNum":1,"lastRecNum":10,"pagingActionTemplate":{"navigationState":"?No=%7Boffset%7D"},"records":[]}"#
            var messages: [(key: String?, value: [UInt8]?)] = [("overflow", Array(overflow.utf8))]
            let fields = ["totalNumRecs", "recsPerPage", "firstRecNum", "lastRecNum"]
            for (n, field) in fields.enumerated() {
                for extreme in [
                    "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1e308", "-0", "1e-400",
                ] {
                    let page =
                        #"{"@type":"ResultsList","totalNumRecs":100,"recsPerPage":10,"firstRecNum":91,"lastRecNum":100,"pagingActionTemplate":{"navigationState":"?No=%7Boffset%7D"},"records":[]}"#
                        .replacingOccurrences(
                            of: "\"\(field)\":\(["100", "10", "91", "100"][n])", with: "\"\(field)\":\(extreme)")
                    messages.append(("page", Array(page.utf8)))
                }
            }
            messages.append(("after", emptyResultsList("after")))
            try broker.produce(input, messages)
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                extra: consumerFlags + [
                    "--stop-after", "\(messages.count)", "--changes-topic", changes,
                    "--latest-layout-topic", latest,
                ])
            // The change stage carries the paging window from one extreme page to the next (the second overflow).
            #expect(worker.wait(seconds: 90) == 0, "\(worker.logText.suffix(3000))")
            let counts = worker.stoppedCounts
            #expect(counts["consumed"] == messages.count)
            #expect(
                counts["consumed"] == (counts["published"] ?? 0) + (counts["dead-lettered"] ?? 0)
                    + (counts["skipped"] ?? 0)
            )
            #expect(try broker.committed(group: group, topic: input, partitions: 1)[0] == Int64(messages.count))
            #expect(
                pageNames(try broker.consume(output, partitions: 1, count: counts["published"] ?? 0)).contains("after"))
        }
    }

    /// The worker dies (debug fault hook) while compiling one message: the first death counts the whole batch, the
    /// second names the message, the third start dead-letters it as `worker-crash` and publishes everything else.
    @Test func aMessageTheWorkerDiesOnTwiceIsDeadLetteredAsWorkerCrash() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            let keys = ["a", "b", "boom", "c", "d"]
            try broker.produce(input, keys.map { ($0, emptyResultsList($0)) })
            let state = broker.workDirectory.appendingPathComponent("crash-state").path
            let extra = consumerFlags + ["--stop-after", "5", "--crash-state-dir", state]
            var statuses: [Int32?] = []
            for _ in 0..<3 {
                let worker = try WorkerProcess(
                    broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: extra,
                    environment: ["LAYOUT_WORKER_DEBUG_CRASH_KEY": "boom"])
                statuses.append(worker.wait(seconds: 60))
                if statuses.last == 0 {
                    let counts = worker.stoppedCounts
                    #expect(
                        counts["consumed"] == 5 && counts["published"] == 4 && counts["dead-lettered"] == 1, "\(counts)"
                    )
                }
            }
            // Two deaths (a trap is SIGILL or SIGTRAP), then a clean run.
            #expect(statuses.count == 3 && statuses[0] != 0 && statuses[1] != 0 && statuses[2] == 0, "\(statuses)")
            let letters = try broker.consume(dlq, partitions: 1, count: 1)
            #expect(letters.count == 1)
            #expect(letters.first.flatMap { header($0, "layout-worker-error-code") } == "worker-crash")
            #expect(letters.first?.key == Array("boom".utf8))
            #expect(letters.first.flatMap { header($0, "layout-worker-source-offset") } == "2")
            // Everything else is published (at least once: the second run published a and b before it died).
            #expect(Set(pageNames(try broker.consume(output, partitions: 1, count: 4))) == ["a", "b", "c", "d"])
            #expect(try broker.committed(group: group, topic: input, partitions: 1)[0] == 5)
        }
    }

    /// A 1.7 KB response with a 17 MiB header: too large with its headers, dead-lettered with the header dropped so
    /// the dead letter fits; a record above the producer's limit is dead-lettered as `record-too-large`, cut to fit.
    /// Incoming `layout-worker-*` headers are not carried; a header name with a NUL byte survives.
    @Test func oversizedMessagesAndRecordsAreDeadLetteredAndFit() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            let big = KafkaHeader("x-trace-blob", [UInt8](repeating: UInt8(ascii: "z"), count: 17 << 20))
            let value = emptyResultsList(String(repeating: "n", count: 1_700))
            try broker.produce(
                input,
                [
                    (
                        key: "huge-header", value: value,
                        headers: [big, KafkaHeader("layout-worker-error-code", text: "old-code")]
                    ),
                    (
                        key: "nul", value: Array("{".utf8),
                        headers: [
                            KafkaHeader("a\u{0}b", text: "kept"), KafkaHeader("layout-worker-error-code", text: "old"),
                        ]
                    ),
                    (key: "after", value: emptyResultsList("after"), headers: []),
                ])
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                extra: consumerFlags + ["--stop-after", "3"])
            #expect(worker.wait(seconds: 90) == 0, "\(worker.logText.suffix(3000))")
            let letters = try broker.consume(dlq, partitions: 1, count: 2)
            #expect(letters.count == 2)
            let huge = letters.first { $0.key == Array("huge-header".utf8) }
            #expect(huge.flatMap { header($0, "layout-worker-error-code") } == "too-large")
            #expect(huge?.value == value)
            #expect(huge?.headers.contains { $0.name == "x-trace-blob" } == false)
            #expect(
                huge.flatMap { header($0, "layout-worker-dead-letter-cut") }?.contains("dropped 1 input headers")
                    == true)
            // Only this worker's own code: the incoming one is not carried.
            #expect(huge?.headers.filter { $0.name == "layout-worker-error-code" }.count == 1)
            let nul = letters.first { $0.key == Array("nul".utf8) }
            // A header name with a NUL byte reads up to the NUL (librdkafka gives consumed names as C strings).
            #expect(nul.flatMap { header($0, "a") } == "kept", "\(nul?.headers.map(\.name) ?? [])")
            #expect(
                nul?.headers.filter { $0.name == "layout-worker-error-code" }.map {
                    String(decoding: $0.value ?? [], as: UTF8.self)
                } == ["invalid-json"])
            #expect(pageNames(try broker.consume(output, partitions: 1, count: 1)) == ["after"])

            // A producer limit of 2,000 bytes: the 1.7 KB response's record is over it; its dead letter is cut to fit.
            let (input2, output2, dlq2, group2) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g")
            )
            try broker.createTopics([input2, output2, dlq2], partitions: 1)
            try broker.produce(input2, [("big-record", value), ("small", emptyResultsList("small"))])
            let worker2 = try WorkerProcess(
                broker: broker, input: input2, output: output2, deadLetter: dlq2, group: group2,
                extra: consumerFlags + ["--stop-after", "2", "--producer-property", "message.max.bytes=2000"])
            #expect(worker2.wait(seconds: 60) == 0, "\(worker2.logText.suffix(3000))")
            let letter = try broker.consume(dlq2, partitions: 1, count: 1).first
            #expect(letter.flatMap { header($0, "layout-worker-error-code") } == "record-too-large")
            #expect(
                letter.flatMap { header($0, "layout-worker-dead-letter-cut") }?.contains(
                    "value cut from \(value.count) to")
                    == true,
                "\(letter.flatMap { header($0, "layout-worker-dead-letter-cut") } ?? "no cut header")")
            #expect(pageNames(try broker.consume(output2, partitions: 1, count: 1)) == ["small"])
            let counts = worker2.stoppedCounts
            #expect(counts["published"] == 1 && counts["dead-lettered"] == 1)
        }
    }

    /// The output topic is missing (a real cluster does not auto-create) through three rounds of failed deliveries:
    /// valid input waits, is never dead-lettered, and is published once the topic exists; invalid input is
    /// dead-lettered; /readyz says why.
    @Test func aMissingOutputTopicIsWaitedOutNotDeadLettered() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, dlq], partitions: 1)
            var messages: [(key: String?, value: [UInt8]?)] = []
            for n in 0..<12 { messages.append(("k\(n)", n % 4 == 3 ? Array("{".utf8) : emptyResultsList("ok-\(n)"))) }
            try broker.produce(input, messages)
            let port = try TestBroker.freePort()
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                extra: consumerFlags + ["--stop-after", "12"] + missingTopicFlags, http: "127.0.0.1:\(port)")
            var readiness = ""
            let sawBlocked = waitUntil(seconds: 30, every: 0.2) {
                guard let (data, code) = try? syncGet(URL(string: "http://127.0.0.1:\(port)/readyz")!) else {
                    return false
                }
                readiness = "\(code) \(String(decoding: data, as: UTF8.self))"
                return code == 503 && readiness.contains("output blocked") && readiness.contains(output)
            }
            #expect(sawBlocked, "readyz: \(readiness)")
            waitForRetryRounds(3, of: worker, port: port)
            try broker.createTopics([output], partitions: 1)
            let created = Date()
            #expect(worker.wait(seconds: 90) == 0, "\(worker.logText.suffix(3000))")
            let recovery = Date().timeIntervalSince(created)
            let counts = worker.stoppedCounts
            #expect(counts["published"] == 9 && counts["dead-lettered"] == 3, "\(counts)")
            let letters = try broker.consume(dlq, partitions: 1, count: 3)
            #expect(
                letters.map { header($0, "layout-worker-error-code") ?? "" } == [
                    "invalid-json", "invalid-json", "invalid-json",
                ])
            #expect(Set(pageNames(try broker.consume(output, partitions: 1, count: 9))).count == 9)
            print(
                "missing output topic: published 9, dead-lettered 3 (all invalid-json); done \(String(format: "%.1f", recovery)) s after the topic was created"
            )
        }
    }

    /// The dead-letter topic is missing through three rounds of failed deliveries: dead letters wait (the worker
    /// never exits for it), then land.
    @Test func aMissingDeadLetterTopicIsWaitedOut() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output], partitions: 1)
            try broker.produce(
                input, (0..<6).map { n in ("k\(n)", n % 2 == 0 ? Array("[".utf8) : emptyResultsList("ok-\(n)")) })
            let port = try TestBroker.freePort()
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                extra: consumerFlags + ["--stop-after", "6"] + missingTopicFlags, http: "127.0.0.1:\(port)")
            waitForRetryRounds(3, of: worker, port: port)
            try broker.createTopics([dlq], partitions: 1)
            #expect(worker.wait(seconds: 90) == 0, "\(worker.logText.suffix(3000))")
            let counts = worker.stoppedCounts
            #expect(counts["published"] == 3 && counts["dead-lettered"] == 3, "\(counts)")
            #expect(try broker.consume(dlq, partitions: 1, count: 3).count == 3)
            #expect(try broker.committed(group: group, topic: input, partitions: 1)[0] == 6)
        }
    }

    /// Five broker kill/restart cycles (the memory broker comes back empty, as after losing producer state): the
    /// worker never exits and serves each cycle's messages; recovery times are printed.
    @Test func fiveBrokerRestartsWithoutExit() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            try broker.produce(input, (0..<3).map { ("k\($0)", emptyResultsList("start-\($0)")) })
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: consumerFlags + [
                    "--kafka-property", "topic.metadata.refresh.interval.ms=1000",
                    "--producer-property", "allow.auto.create.topics=false",
                ])
            #expect(try broker.consume(output, partitions: 1, count: 3, timeout: 60).count == 3)
            var recoveries: [Double] = []
            for cycle in 0..<5 {
                try broker.restart()
                let restarted = Date()
                // The topics come back once the worker has seen them gone; their messages must all be published.
                _ = worker.waitForLog("Subscribed topic not available", seconds: 30)
                try broker.createTopics([input, output, dlq], partitions: 1)
                try broker.produce(input, (0..<3).map { ("k\($0)", emptyResultsList("cycle-\(cycle)-\($0)")) })
                var names: Set<String> = []
                let deadline = Date().addingTimeInterval(90)
                while Date() < deadline && names.count < 3 {
                    names = Set(
                        pageNames(try broker.consume(output, partitions: 1, count: 3, timeout: 2)).filter {
                            $0.hasPrefix("cycle-\(cycle)-")
                        })
                }
                recoveries.append(Date().timeIntervalSince(restarted))
                #expect(names.count == 3, "cycle \(cycle): \(names)\n\(worker.logText.suffix(3000))")
                #expect(worker.process.isRunning, "the worker exited in cycle \(cycle)")
            }
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 20) == 0)
            #expect(!worker.logText.contains("dead-lettering message"), "nothing valid may be dead-lettered")
            print(
                "broker restarts: all messages published after each of 5 restarts in \(recoveries.map { String(format: "%.1f", $0) }.joined(separator: ", ")) s (restart to last record)"
            )
        }
    }

    /// `replay` delivers through the same engine: an output topic missing until replay says its output is blocked
    /// is waited out (and used within 15 s of its creation), invalid input is dead-lettered, the overflow response
    /// is compiled.
    @Test func replayWaitsOutAMissingOutputTopic() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, dlq], partitions: 1)
            let overflow =
                #"{"@type":"ResultsList","recsPerPage":10,"totalNumRecs":9223372036854775807,"firstRecNum":1,"lastRecNum":10,"pagingActionTemplate":{"navigationState":"?No=%7Boffset%7D"},"records":[]}"#
            try broker.produce(
                input,
                [
                    ("a", emptyResultsList("a")), ("bad", Array("{".utf8)), ("o", Array(overflow.utf8)),
                    ("b", emptyResultsList("b")),
                ])
            let process = layoutWorkerProcess([
                "replay", "--brokers", broker.address, "--input", input, "--output", output, "--dead-letter", dlq,
                "--config", Fixtures.path("config/default.yaml"), "--format", "json",
                "--kafka-property", "allow.auto.create.topics=false",
                "--kafka-property", "topic.metadata.propagation.max.ms=1000",
            ])
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            let said = Mutex("")
            err.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                said.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
            let blocked = waitUntil(seconds: 30, every: 0.1) { said.withLock { $0.contains("output blocked") } }
            #expect(blocked && process.isRunning, "\(said.withLock { $0 })")
            try broker.createTopics([output], partitions: 1)
            // The producer has seen the topic missing: it asks again before each retry (at most 5 s apart), instead of
            // failing every record until its five-minute metadata refresh (48 s here, through a stalled producer).
            let unblocked = waitUntil(seconds: 15, every: 0.1) { said.withLock { $0.contains("output unblocked") } }
            #expect(unblocked, "not unblocked within 15 s of the topic's creation: \(said.withLock { $0 })")
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            err.fileHandleForReading.readabilityHandler = nil
            #expect(process.terminationStatus == 0)
            #expect(text.contains(#""compiled":3"#) && text.contains(#""deadLettered":1"#), "\(text)")
            #expect(Set(pageNames(try broker.consume(output, partitions: 1, count: 3))) == ["a", "b"])
            #expect(
                try broker.consume(dlq, partitions: 1, count: 1).first.flatMap {
                    header($0, "layout-worker-error-code")
                }
                    == "invalid-json")
        }
    }
}
