import Foundation
import Kafka
import TestSupport
import Testing

/// `layout-worker tail` reads every partition the topic's metadata names, refuses a missing topic, shows headers
/// with `--full` and keeps printing with `--follow`.
@Suite(.serialized) struct TailCommandTests {
    func tail(_ broker: TestBroker, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try runCLI(["tail", "--brokers", broker.address, "--timeout-ms", "1500"] + arguments)
    }

    @Test func everyPartitionMissingTopicsHeadersAndFollow() throws {
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
        #expect(all.out.contains("8 message(s) on \(topic) (6 of 6 partitions)"), "\(all.out)")
        #expect(
            Set(
                all.out.split(separator: "\n").filter { $0.hasPrefix(topic) }.map {
                    $0.split(separator: "[")[1].prefix(1)
                }
            ).count == 6)
        #expect(!all.out.contains("header trace-"))

        let some = try tail(broker, ["--topic", topic, "--partitions", "0,5", "--full"])
        #expect(some.out.contains("3 message(s) on \(topic) (2 of 6 partitions)"), "\(some.out)")
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
