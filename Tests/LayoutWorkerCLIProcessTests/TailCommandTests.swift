import Foundation
import Kafka
import TestSupport
import Testing

@testable import ProcessTestSupport

/// `layout-worker tail` reads every partition the topic's metadata names, refuses a missing topic, shows headers
/// with `--full` and keeps printing with `--follow`.
@Suite(.serialized) struct TailCommandTests {
    func tail(_ broker: TestBroker, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try runCLI(["tail", "--brokers", broker.address, "--timeout-ms", "1500"] + arguments)
    }

    @Test func everyPartitionMissingTopicsHeadersAndFollow() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let topic = "tail-\(UUID().uuidString.prefix(8))"
            try broker.createTopics([topic], partitions: 6)
            // One message on each of the 6 partitions and two more: 8 in all.
            let messages = (0..<8).map { n in
                (
                    key: "k\(n)" as String?, value: Array("v\(n)".utf8) as [UInt8]?,
                    headers: [KafkaHeader("trace-\(n)", text: "t\(n)")]
                )
            }
            for (n, m) in messages.enumerated() { try broker.produce(topic, [m], partition: Int32(n % 6)) }

            let all = try tail(broker, ["--topic", topic])
            #expect(all.status == 0, "\(all.err)")
            #expect(all.err.contains("8 message(s) read on \(topic), 6 of 6 partitions"), "\(all.err)")
            #expect(
                Set(
                    all.out.split(separator: "\n").filter { $0.hasPrefix(topic) }.map {
                        $0.split(separator: "[")[1].prefix(1)
                    }
                ).count == 6)
            #expect(!all.out.contains("header trace-"))

            let some = try tail(broker, ["--topic", topic, "--partitions", "0,5", "--full"])
            #expect(some.err.contains("3 message(s) read on \(topic), 2 of 6 partitions"), "\(some.err)")
            #expect(some.out.contains("header trace-0: t0") && some.out.contains("header trace-6: t6"), "\(some.out)")
            let wrong = try tail(broker, ["--topic", topic, "--partitions", "9"])
            #expect(wrong.status == 64 && wrong.err.contains("has partitions 0 to 5"), "\(wrong.err)")

            let missing = try tail(broker, ["--topic", "no-such-topic-\(UUID().uuidString.prefix(8))"])
            #expect(
                missing.status == 1 && missing.err.contains("does not exist"),
                "\(missing.status) \(missing.out) \(missing.err)")

            // --follow: a message produced after the start is printed, with no idle timeout.
            let process = layoutWorkerProcess([
                "tail", "--brokers", broker.address, "--topic", topic, "--follow", "--timeout-ms", "100",
            ])
            let log = broker.workDirectory.appendingPathComponent("tail-follow.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: log)
            try process.run()
            defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
            let text = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
            #expect(waitUntil(seconds: 20) { text().contains("key=k7") })
            Thread.sleep(forTimeInterval: 1)  // longer than --timeout-ms: a follower does not stop when idle
            try broker.produce(topic, [(key: "late", value: Array("late".utf8), headers: [])], partition: 2)
            #expect(waitUntil(seconds: 20) { text().contains("key=late") }, "\(text())")
            #expect(process.isRunning)
        }
    }

    /// `--key`, `--start`, `--format value|ndjson`, the count on stderr, escaped keys, and a page's change sets
    /// piped from `tail` into `apply` giving its newest record.
    @Test func keyStartFormatsAndTheApplyRoundTrip() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let topic = "tail-\(UUID().uuidString.prefix(8))"
            try broker.createTopics([topic], partitions: 1)
            let dir = broker.workDirectory
            // Three records of one page (compiled from the samples) and the change sets between them.
            let samples = ["search-page", "grouped-results", "empty-results"]
            var records: [String] = []
            for (n, sample) in samples.enumerated() {
                let compiled = try runCLI(["compile", "samples/\(sample).json"])
                try #require(compiled.status == 0, "\(compiled.err)")
                let path = dir.appendingPathComponent("r\(n).json").path
                try compiled.out.write(toFile: path, atomically: true, encoding: .utf8)
                records.append(path)
            }
            var changes: [String] = []
            for n in 1..<records.count {
                let diff = try runCLI(["diff", records[n - 1], records[n]])
                try #require(diff.status == 0, "\(diff.err)")
                changes.append(diff.out.trimmingCharacters(in: .newlines))
            }
            // The page's change sets between another page's messages, and a key with a newline in it.
            try broker.produce(topic, [("other", Array("x".utf8)), ("home", Array(changes[0].utf8))])
            try broker.produce(topic, [("bad\nkey", Array("y".utf8)), ("home", Array(changes[1].utf8))])

            let values = try tail(broker, ["--topic", topic, "--key", "home", "--format", "value"])
            #expect(values.status == 0 && values.out == changes.joined(separator: "\n") + "\n", "\(values.out)")
            #expect(values.err.contains("4 message(s) read on \(topic) (2 with key home)"), "\(values.err)")

            let summary = try tail(broker, ["--topic", topic, "--start", "offset:2"])
            #expect(summary.out.contains("@2 key=bad\\nkey") && !summary.out.contains("@1 key="), "\(summary.out)")
            #expect(!summary.out.contains("message(s)"), "the count goes to stderr: \(summary.out)")

            let lines = try tail(broker, ["--topic", topic, "--format", "json"]).out.split(separator: "\n")
            #expect(lines.count == 4)
            let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [String: Any])
            #expect(
                first["key"] as? String == "bad\nkey" && first["offset"] as? Int == 2
                    && first["value"] as? String == "y")

            let start = try tail(broker, ["--topic", topic, "--start", "later"])
            #expect(start.status == 64 && start.err.contains("--start: start 'later' is not beginning"), "\(start.err)")

            // tail --key home --format value | apply FIRST - : the newest record, byte for byte.
            let binary = layoutWorkerBinary
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = [
                "-c",
                "'\(binary)' tail --brokers \(broker.address) --timeout-ms 1500 --topic \(topic) --key home --format value"
                    + " | '\(binary)' apply '\(records[0])' -",
            ]
            shell.environment = childEnvironment()
            let out = Pipe()
            shell.standardOutput = out
            try shell.run()
            let applied = out.fileHandleForReading.readDataToEndOfFile()
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0)
            #expect(
                String(decoding: applied, as: UTF8.self) == (try String(contentsOfFile: records[2], encoding: .utf8)))
        }
    }
}
