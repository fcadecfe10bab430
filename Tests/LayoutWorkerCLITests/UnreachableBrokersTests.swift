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

    /// `produce` says so within seconds, before queueing anything (not librdkafka's "still in queue" after 30 s), and
    /// `replay` instead of "replay failed" and librdkafka's code.
    @Test func produceAndReplaySayItToo() throws {
        let started = Date()
        let produce = try runCLI([
            "produce", "--brokers", "127.0.0.1:1", "--topic", "t", Fixtures.path("samples/search-page.json"),
        ])
        #expect(produce.status == 1 && produce.err.contains("no broker answered at 127.0.0.1:1 ("), "\(produce.err)")
        #expect(!produce.err.contains("still in queue"), "\(produce.err)")
        #expect(Date().timeIntervalSince(started) < 20)
        let replay = try runCLI(["replay", "--brokers", "127.0.0.1:1", "--input", "t", "--dry-run"])
        #expect(replay.status == 1 && replay.err.contains("no broker answered at 127.0.0.1:1 ("), "\(replay.err)")
        #expect(!replay.err.contains("replay failed"), "\(replay.err)")
    }
}
