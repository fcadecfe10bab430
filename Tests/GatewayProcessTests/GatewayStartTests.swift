import Foundation
import TestSupport
import Testing

@testable import ProcessTestSupport

/// A gateway that cannot listen says so and exits, before it reads a topic.
@Suite struct GatewayStartTests {
    @Test func aTakenAPIPortIsNamedAndTheGatewayExits() async throws {
        try await offThePool {
            let taken = try TestOrigin()  // something listening on a loopback port
            let process = layoutWorkerProcess([
                "gateway", "--brokers", "127.0.0.1:1", "--changes-topic", "c", "--port", String(taken.port), "--http",
                "off", "--page-store", "off",
            ])
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let exited = waitUntil(seconds: 10, every: 0.05) { !process.isRunning }
            if !exited { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(exited, "still running after 10 s; said: \(said)")
            #expect(process.terminationStatus == 64, "\(said)")
            #expect(
                said.contains("port 127.0.0.1:\(taken.port): cannot listen there (Address already in use)"), "\(said)")
        }
    }

    /// A latest-layout topic that is not compacted is named in a warning at start, with its `cleanup.policy`; a
    /// compacted one is not (its check logged as done at debug level, so the absence is of a check that ran).
    @Test func aLatestLayoutTopicThatIsNotCompactedIsWarnedAbout() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (changes, kept, compacted) = (uniqueName("changes"), uniqueName("kept"), uniqueName("compacted"))
            try broker.createTopics([changes, kept], partitions: 1, config: ["retention.ms": "3600000"])
            try broker.createTopics([compacted], partitions: 1, config: ["cleanup.policy": "compact"])
            for (latest, warned) in [(kept, true), (compacted, false)] {
                let gateway = try GatewayProcess(
                    broker: broker, changes: changes, state: latest, extra: ["--log-level", "debug"])
                let checked = waitUntil(seconds: 30, every: 0.1) {
                    gateway.logText.contains("is not compacted") || gateway.logText.contains("topic is compacted")
                }
                let log = gateway.logText
                #expect(checked, "no word on compaction within 30 s: \(log.suffix(2000))")
                #expect(
                    log.contains(
                        "latest-layout topic \(latest) is not compacted (cleanup.policy=delete) (retention.ms=3600000)")
                        == warned, "\(log.suffix(2000))")
                #expect(log.contains("set cleanup.policy=compact on it") == warned)
                kill(gateway.process.processIdentifier, SIGTERM)
                gateway.process.waitUntilExit()
            }
        }
    }
}
