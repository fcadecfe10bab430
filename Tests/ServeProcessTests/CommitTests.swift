import Delivery
import Foundation
import Kafka
import KafkaTesting
import LayoutJSON
import LayoutKit
import Serve
import Synchronization
import TestSupport
import Testing

@testable import ProcessTestSupport

/// Produces `count` messages from a thread of their own, `perBatch` every `pause` seconds, each batch flushed.
final class SteadyProducer: Sendable {
    private let done = DispatchGroup()
    private let failure = Mutex<String?>(nil)
    private let flushed = Atomic<Int>(0)

    /// Messages written and acknowledged so far.
    var written: Int { flushed.load(ordering: .relaxed) }

    init(broker: TestBroker, topic: String, count: Int, perBatch: Int = 20, pause: Double = 0.15) {
        let config = KafkaConfiguration(
            bootstrapServers: broker.address,
            properties: ["batch.num.messages": "1", "linger.ms": "0", "message.timeout.ms": "120000"])
        done.enter()
        Thread.detachNewThread { [self] in
            defer { done.leave() }
            do {
                let producer = try KafkaProducer(configuration: config)
                for batch in 0..<((count + perBatch - 1) / perBatch) {
                    for n in (batch * perBatch)..<min(count, (batch + 1) * perBatch) {
                        try producer.produce(
                            topic: topic, key: Array("k\(n % 30)".utf8), value: emptyResultsList("m\(n)"), token: n)
                    }
                    let (reports, pending) = producer.flush(timeoutMs: 120_000)
                    if pending > 0 || reports.contains(where: { $0.error != nil }) {
                        throw TestBrokerError("produce failed: \(reports.compactMap(\.error))")
                    }
                    flushed.add(reports.count, ordering: .relaxed)
                    Thread.sleep(forTimeInterval: pause)
                }
            } catch { failure.withLock { $0 = $0 ?? "\(error)" } }
        }
    }

    /// Waits for the last batch; returns the first failure, if any.
    func finish() -> String? {
        done.wait()
        return failure.withLock { $0 }
    }
}

/// Offset commits and delivery through faults: a commit the coordinator refuses is sent again, partitions move
/// between brokers, brokers go down, requests fail. librdkafka's mock cluster (three brokers) can do what the
/// one-node test broker cannot; the delivery test runs against both.
@Suite(.serialized) struct CommitTests {
    /// The report's repro: a commit fails with ILLEGAL_GENERATION (the coordinator's answer during a rebalance),
    /// then the partition is quiet. The worker sends the commit again within seconds, reads nothing twice, and a
    /// worker started afterwards finds nothing to re-deliver.
    @Test func aCommitRefusedDuringARebalanceIsSentAgainOnAQuietPartition() async throws {
        try await offThePool {
            let broker = try TestBroker(mockBrokers: 3)
            let mock = try #require(broker.mock)
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            try broker.produce(input, (0..<40).map { ("k\($0)", emptyResultsList("m\($0)")) })
            let worker = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: group)
            #expect(
                waitUntil(seconds: 60) { (try? broker.committed(group: group, topic: input, partitions: 1)[0]) == 40 },
                "\(worker.logText.suffix(3000))")
            mock.failNext(.offsetCommit, with: [KafkaMockCluster.illegalGeneration])
            try broker.produce(input, (40..<50).map { ("k\($0)", emptyResultsList("m\($0)")) })
            let start = Date()
            let committed = waitUntil(seconds: 60, every: 0.1) {
                (try? broker.committed(group: group, topic: input, partitions: 1)[0]) == 50
            }
            let seconds = Date().timeIntervalSince(start)
            #expect(committed, "\(worker.logText.suffix(4000))")
            #expect(worker.logText.contains("commit failed; sending it again"), "the injected failure must be met")
            let live = recordSources(try broker.consume(output, partitions: 1, count: 50, timeout: 10))
            #expect(live.count == 50 && Set(live).count == 50, "\(live.count) records, \(Set(live).count) distinct")
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 20) == 0)

            // The next worker of the group starts at 50: nothing is delivered again. One more input (m50) marks the
            // end: the partition is read in order, so once its record is out, anything re-delivered would be too.
            let next = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: group)
            #expect(next.waitForLog("partitions assigned", seconds: 60), "\(next.logText.suffix(2000))")
            try broker.produce(input, [("k50", emptyResultsList("m50"))])
            let after = recordSources(try broker.consume(output, partitions: 1, count: 51, timeout: 30))
            next.signal(SIGTERM)
            #expect(next.wait(seconds: 20) == 0)
            // In order on one partition: the first 50 records are the live ones, so the 51st must be m50's (0/50).
            #expect(after.count == 51 && after.last == "0/50", "after the restart: \(after.dropFirst(50))")
            #expect(next.stoppedCounts["consumed"] == 1, "\(next.stoppedCounts)")
            print(
                "commit after ILLEGAL_GENERATION: committed 50 after \(String(format: "%.2f", seconds)) s; records \(live.count) live (\(live.count - Set(live).count) duplicates), \(after.last == "0/50" ? 0 : after.count - 50) re-delivered on the next start"
            )
        }
    }

    /// Leaders move mid-stream and a broker goes down and comes back while a producer keeps writing: every input has
    /// its record, nothing is dead-lettered, and every partition is committed to its end. The broker that goes down
    /// is the group's coordinator and leads a partition of each topic; it stays down until the worker has lost its
    /// group session to it (revoked, rejoining), then comes back.
    @Test func leaderChangesAndABrokerDownLoseAndStallNothing() async throws {
        try await offThePool {
            let broker = try TestBroker(mockBrokers: 3)
            let mock = try #require(broker.mock)
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 3)
            try mock.setGroupCoordinator(group: group, broker: 2)
            let worker = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: group)
            #expect(worker.waitForLog("partitions assigned", seconds: 60), "\(worker.logText.suffix(2000))")
            let total = 600
            let producer = SteadyProducer(broker: broker, topic: input, count: total)
            #expect(waitUntil(seconds: 30) { producer.written >= 100 }, "the producer wrote \(producer.written)")
            for p in Int32(0)..<3 {
                for topic in [input, output] { try mock.setLeader(topic: topic, partition: p, broker: (p + 1) % 3 + 1) }
            }
            #expect(waitUntil(seconds: 30) { producer.written >= 200 }, "the producer wrote \(producer.written)")
            let logged = worker.logText.utf8.count
            try mock.setBroker(2, up: false)
            let down = Date()
            let sessionLost = waitUntil(seconds: 30, every: 0.05) {
                String(decoding: worker.logText.utf8.dropFirst(logged), as: UTF8.self).contains(
                    "Consumer group session timed out")
            }
            let outage = Date().timeIntervalSince(down)
            #expect(sessionLost, "\(worker.logText.suffix(3000))")
            try mock.setBroker(2, up: true)
            let back = Date()
            for p in Int32(0)..<3 {
                for topic in [input, output] { try mock.setLeader(topic: topic, partition: p, broker: p % 3 + 1) }
            }
            #expect(producer.finish() == nil)
            // The test's producer is not idempotent: a produce retried across the outage can write an input twice, at
            // two offsets. Each of those is a message the worker must compile, so the inputs are what the topic holds.
            let inputs = try broker.consume(input, partitions: 3, count: total)
            let expected = Set(inputs.map(inputSource))
            let ends = TestBroker.endOffsets(inputs)
            let done = broker.waitForCommits(group: group, topic: input, ends: ends)
            let recovery = Date().timeIntervalSince(back)
            #expect(
                done,
                "committed \(String(describing: try? broker.committed(group: group, topic: input, partitions: 3))) vs ends \(ends)\n\(worker.logText.suffix(3000))"
            )
            let records = recordSources(
                try broker.readToEnd(output, partitions: 3) { expected.isSubset(of: recordSources($0)) })
            let letters = try broker.consume(dlq, partitions: 3, count: 0, timeout: 1)
            let missing = expected.subtracting(records), strays = Set(records).subtracting(expected)
            #expect(
                missing.isEmpty, "\(missing.count) of \(expected.count) inputs without a record: \(missing.sorted())")
            #expect(strays.isEmpty, "records of no input: \(strays.sorted())")
            #expect(letters.isEmpty, "\(letters.count) dead letters")
            #expect(worker.process.isRunning)
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 20) == 0)
            print(
                "mock cluster, leaders moved twice and broker 2 (the coordinator) down \(String(format: "%.1f", outage)) s: \(total) produced, \(inputs.count) inputs, \(records.count) records (\(records.count - Set(records).count) duplicates), 0 lost, committed to the end \(String(format: "%.1f", recovery)) s after the broker came back"
            )
        }
    }

    /// Every injected error is waited out or handled, never dead-lettered: NOT_LEADER_OR_FOLLOWER,
    /// REQUEST_TIMED_OUT and UNKNOWN_PRODUCER_ID on produce, COORDINATOR_NOT_AVAILABLE on finding the coordinator,
    /// ILLEGAL_GENERATION and REBALANCE_IN_PROGRESS on commit.
    @Test func injectedRequestErrorsAreWaitedOut() async throws {
        try await offThePool {
            let broker = try TestBroker(mockBrokers: 3)
            let mock = try #require(broker.mock)
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 3)
            try broker.produce(input, (0..<60).map { ("k\($0)", emptyResultsList("m\($0)")) })
            mock.failNext(.findCoordinator, with: Array(repeating: KafkaMockCluster.coordinatorNotAvailable, count: 3))
            mock.failNext(
                .produce,
                with: [
                    KafkaMockCluster.notLeaderOrFollower, KafkaMockCluster.notLeaderOrFollower,
                    KafkaMockCluster.requestTimedOut, KafkaMockCluster.unknownProducerID,
                ])
            mock.failNext(
                .offsetCommit, with: [KafkaMockCluster.illegalGeneration, KafkaMockCluster.rebalanceInProgress])
            let worker = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: group)
            let ends = TestBroker.endOffsets(try broker.consume(input, partitions: 3, count: 60))
            let start = Date()
            let done = broker.waitForCommits(group: group, topic: input, ends: ends)
            #expect(done, "\(worker.logText.suffix(4000))")
            let seconds = Date().timeIntervalSince(start)
            let records = recordSources(try broker.consume(output, partitions: 3, count: 60))
            #expect(Set(records).count == 60)
            #expect(try broker.consume(dlq, partitions: 3, count: 0, timeout: 1).isEmpty)
            #expect(
                worker.logText.contains("commit failed; sending it again"), "the injected commit errors must be met")
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 20) == 0)
            print(
                "mock cluster, injected errors: 60 inputs, \(records.count) records (\(records.count - Set(records).count) duplicates), 0 lost, 0 dead-lettered, all committed after \(String(format: "%.1f", seconds)) s"
            )
        }
    }

    /// With change sets on, the latest-layout topic's offsets cannot be listed when partitions are assigned (every
    /// ListOffsets request times out): the worker waits it out, rebuilding again until it can, instead of stopping;
    /// then every input has its record and the group is committed to the end.
    @Test func aRebuildThatMeetsRetriableErrorsIsTriedAgain() async throws {
        try await offThePool {
            let broker = try TestBroker(mockBrokers: 3)
            let mock = try #require(broker.mock)
            let (input, output, dlq, changes, state, group) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest"),
                uniqueName("g")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 3)
            try broker.produce(input, (0..<30).map { ("k\($0)", emptyResultsList("m\($0)")) })
            let ends = TestBroker.endOffsets(try broker.consume(input, partitions: 3, count: 30))
            mock.failNext(.listOffsets, with: Array(repeating: KafkaMockCluster.requestTimedOut, count: 100_000))
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                extra: ["--changes-topic", changes, "--latest-layout-topic", state])
            let waited = worker.waitForLog("cannot read latest layouts yet; trying again", seconds: 60)
            #expect(waited, "\(worker.logText.suffix(3000))")
            // It goes on trying (a second attempt logged), not stopping.
            let again = waitUntil(seconds: 30, every: 0.05) {
                worker.logText.components(separatedBy: "cannot read latest layouts yet; trying again").count > 2
            }
            #expect(again && worker.process.isRunning, "\(worker.logText.suffix(3000))")
            mock.clearErrors(.listOffsets)
            #expect(broker.waitForCommits(group: group, topic: input, ends: ends), "\(worker.logText.suffix(3000))")
            #expect(Set(recordSources(try broker.consume(output, partitions: 3, count: 30))).count == 30)
            #expect(try broker.consume(dlq, partitions: 3, count: 0, timeout: 1).isEmpty)
            #expect(!worker.logText.contains("cannot rebuild latest layouts; stopping"))
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 20) == 0)
        }
    }

    /// A rebuild that fails (a few retriable errors, meanwhile the consumer prefetches the partition, then one that
    /// is not retriable) stops the worker before any message of the batch that poll fetched is stepped or
    /// published: the output holds only the first run's records and the group's offset stays where it was.
    @Test func aRebuildThatFailsStopsBeforeAnyMessageIsPublished() async throws {
        try await offThePool {
            let broker = try TestBroker(mockBrokers: 1)
            let mock = try #require(broker.mock)
            let (input, output, dlq, changes, state, group) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest"),
                uniqueName("g")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 1)
            let flags = ["--changes-topic", changes, "--latest-layout-topic", state]
            try broker.produce(input, (0..<5).map { ("k\($0)", emptyResultsList("m\($0)")) })
            let first = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags)
            #expect(broker.waitForCommits(group: group, topic: input, ends: [0: 5]), "\(first.logText.suffix(3000))")
            first.signal(SIGTERM)
            #expect(first.wait(seconds: 20) == 0)

            try broker.produce(input, (5..<10).map { ("k\($0)", emptyResultsList("m\($0)")) })
            let authorizationFailed: Int32 = 29  // TOPIC_AUTHORIZATION_FAILED: not retriable
            mock.failNext(
                .listOffsets,
                with: Array(repeating: KafkaMockCluster.requestTimedOut, count: 4)
                    + Array(repeating: authorizationFailed, count: 10_000))
            let second = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags)
            let status = second.wait(seconds: 90)
            mock.clearErrors(.listOffsets)
            #expect(status != nil && status != 0, "\(second.logText.suffix(3000))")
            #expect(
                second.logText.contains("cannot rebuild latest layouts; stopping"), "\(second.logText.suffix(3000))")
            let records = try broker.readToEnd(output, partitions: 1)
            #expect(records.count == 5, "records: \(recordSources(records))")
            #expect(try broker.committed(group: group, topic: input, partitions: 1) == [0: 5])
        }
    }
}
