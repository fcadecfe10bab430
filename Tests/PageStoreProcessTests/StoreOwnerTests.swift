import Foundation
import TestSupport
import Testing

@testable import ProcessTestSupport

/// A second `gateway` or `serve` given a page store directory another process uses stops at start with an error
/// that names the holder, instead of quietly working from memory.
@Suite(.serialized) struct StoreOwnerTests {
    @Test func aSecondProcessOnTheSameStoreStopsAtStartAndSaysWhy() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (changes, state) = (uniqueName("changes"), uniqueName("latest"))
            try broker.createTopics([changes, state], partitions: 1)
            let dir = broker.workDirectory.appendingPathComponent("shared-store").path
            let first = try GatewayPageStoreTests.startGateway(broker, changes: changes, state: state, dir: dir)
            for command in [
                ["gateway", "--changes-topic", changes, "--port", "0", "--http", "off"],
                ["serve", "--input", uniqueName("in"), "--output", uniqueName("out"), "--changes-topic", changes],
            ] {
                let (status, _, stderr) = try runCLI(command + ["--brokers", broker.address, "--page-store", dir])
                #expect(status == 1, "\(command[0]): \(stderr)")
                #expect(
                    stderr.contains("another process (pid \(first.process.processIdentifier)) uses it"),
                    "\(command[0]): \(stderr)")
            }
            try GatewayPageStoreTests.stop(first)
        }
    }
}
