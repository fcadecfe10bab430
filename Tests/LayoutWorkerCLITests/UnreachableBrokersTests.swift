import Foundation
import TestSupport
import Testing

/// A one-shot command whose brokers do not answer says which address it tried and what to check, not librdkafka's
/// code alone.
@Suite struct UnreachableBrokersTests {
    @Test func theAddressTriedAndWhatToCheckAreSaid() throws {
        let flag = try runCLI(["tail", "--brokers", "127.0.0.1:1", "--topic", "t"])
        #expect(flag.status == 1)
        #expect(flag.err.contains("Error: no broker answered at 127.0.0.1:1 ("), "\(flag.err)")
        #expect(flag.err.contains("check --brokers (or LAYOUT_WORKER_BROKERS)"), "\(flag.err)")
        let environment = try runCLI(
            ["offsets", "--group", "g", "--topic", "t"], environment: ["LAYOUT_WORKER_BROKERS": "127.0.0.1:2"])
        #expect(
            environment.status == 1 && environment.err.contains("no broker answered at 127.0.0.1:2"),
            "\(environment.err)")
    }
}
