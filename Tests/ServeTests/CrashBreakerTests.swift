import Foundation
import Kafka
import Logging
import Testing

@testable import Serve

/// The crash-loop breaker's files across process deaths, without a broker: each death counts once, whatever the
/// next process manages to do before it dies too.
@Suite struct CrashBreakerTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("breaker-\(UUID().uuidString)")

    func started() -> CrashBreaker {
        let breaker = CrashBreaker(directory: directory.path, group: "g", logger: Logger(label: "test"))
        breaker.recover()
        return breaker
    }

    func messages(_ offsets: ClosedRange<Int64>) -> [KafkaMessage] {
        offsets.map { KafkaMessage(topic: "in", partition: 0, offset: $0, key: nil, value: nil) }
    }

    func compilingFile(_ breaker: CrashBreaker) throws -> String {
        try String(contentsOf: breaker.compilingURL, encoding: .utf8)
    }

    /// A process that dies while compiling, then one that dies before its first batch (a SIGKILL during start-up):
    /// the batch has one crash, not two, so nothing is dead-lettered for the second death.
    @Test func aDeathBeforeTheFirstBatchCountsNothingAgain() throws {
        let batch = messages(0...9)
        started().begin(batch)  // dies compiling
        let second = started()  // dies before its first batch
        #expect(batch.allSatisfy { second.crashes($0) == 1 })
        #expect(try compilingFile(second).isEmpty)
        let third = started()
        #expect(batch.allSatisfy { third.crashes($0) == 1 })
    }

    /// A smaller batch after a death leaves no line of the previous process's batch behind it.
    @Test func aShorterBatchAfterADeathLeavesNoStaleLines() throws {
        let breaker = CrashBreaker(directory: directory.path, group: "g", logger: Logger(label: "test"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // What a process that died left, without the next one having counted it yet.
        try Data(messages(0...99).map { CrashBreaker.key($0) + "\n" }.joined().utf8).write(to: breaker.compilingURL)
        breaker.recover()
        breaker.begin(messages(100...100))
        #expect(try compilingFile(breaker) == "in/0/100\n")
        let next = started()
        #expect(next.crashes(messages(100...100)[0]) == 1)
        #expect(next.crashes(messages(5...5)[0]) == 1)
    }

    /// Two deaths on the same message (compiled alone the second time) reach the dead-letter threshold.
    @Test func twoDeathsOnOneMessageReachTheThreshold() throws {
        let batch = messages(0...4)
        started().begin(batch)
        started().begin([batch[2]])
        let third = started()
        #expect(third.crashes(batch[2]) == CrashBreaker.crashesToDeadLetter)
        #expect(third.crashes(batch[0]) == 1)
    }
}
