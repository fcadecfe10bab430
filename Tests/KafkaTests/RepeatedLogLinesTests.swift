import Foundation
import Logging
import TestSupport
import Testing

@testable import Kafka

/// A broker that is down is said once every 30 s, not at each try of each client.
@Suite struct RepeatedLogLinesTests {
    @Test func aRepeatingLineGoesOutOnceAnIntervalWithHowManyWereHeldBack() {
        let lines = RepeatedLogLines(interval: .seconds(30))
        let t0 = ContinuousClock.now
        let down = "[thrd:b1:9092/1]: b1:9092/1: Connect to ipv4#10.0.0.1:9092 failed: Connection refused"
        #expect(lines.admit(facility: "FAIL", text: down, now: t0) == 0)
        #expect(lines.admit(facility: "FAIL", text: down, now: t0 + .seconds(1)) == nil)
        #expect(lines.admit(facility: "FAIL", text: down, now: t0 + .seconds(29)) == nil)
        // Another broker is said at once; a line of another facility always.
        #expect(lines.admit(facility: "FAIL", text: "[thrd:b2:9092/2]: b2 down", now: t0 + .seconds(2)) == 0)
        #expect(lines.admit(facility: "CONFWARN", text: down, now: t0 + .seconds(3)) == 0)
        #expect(lines.admit(facility: "FAIL", text: down, now: t0 + .seconds(31)) == 2)
        #expect(lines.admit(facility: "FAIL", text: down, now: t0 + .seconds(32)) == nil)
    }

    @Test func clientsOfOneConfigurationSayABrokerIsDownOnce() throws {
        let logged = LoggedLines()
        var configuration = KafkaConfiguration(bootstrapServers: "127.0.0.1:1")
        configuration.logger = Logger(label: "librdkafka") { _ in RecordingLogHandler(lines: logged) }
        configuration.properties["reconnect.backoff.ms"] = "50"
        configuration.properties["reconnect.backoff.max.ms"] = "100"
        let clients = try (0..<3).map { _ in try KafkaConsumer(configuration: configuration, groupID: nil) }
        let deadline = ContinuousClock.now + .seconds(10)
        // Each client tries every 100 ms at most: by 2 s they have tried about 60 times between them.
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(2) && ContinuousClock.now < deadline {
            for c in clients { _ = c.poll(timeoutMs: 20) }
        }
        for c in clients { c.close() }
        let failures = logged.all.filter { $0.contains("facility=FAIL") && $0.contains("127.0.0.1:1") }
        #expect(failures.count == 1, "\(failures)")
    }
}
