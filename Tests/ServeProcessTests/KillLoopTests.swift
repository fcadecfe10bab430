import Delivery
import Foundation
import Kafka
import KafkaTesting
import LayoutKit
import TestSupport
import Testing

@testable import ProcessTestSupport

/// SIGKILL and restart the worker while a producer keeps writing, against each broker, with and without change sets:
/// nothing is lost, no page goes back in time, the group ends committed at every partition's end. A suite of its
/// own (serialized within, beside CommitTests' fault tests in another process of `make test`).
@Suite(.serialized) struct KillLoopTests {
    /// The producer's pause between batches of 20: slow enough that its 900 messages span the six lives (each one
    /// a group join and some work), so the kills land while there is work in flight.
    static let pause = 0.4

    /// The same kill loop with change sets on: followed page by page in topic order, every step starts where the
    /// page's last one ended (no step without its change set) from a later input (none back in time); a step
    /// published again after a kill is a repeat a follower ignores; and every input still has its record.
    @Test(arguments: TestBroker.Kind.allCases) func killLoopWithChangeSetsNeverMovesAPageBack(kind: TestBroker.Kind)
        async throws
    {
        try await offThePool {
            let broker = try TestBroker.start(kind)
            let (input, output, dlq, changes, state, group) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest"),
                uniqueName("g")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 3)
            let flags = ["--changes-topic", changes, "--latest-layout-topic", state]
            let total = 900
            let producer = SteadyProducer(broker: broker, topic: input, count: total, pause: Self.pause)
            var kills = KillPoints(broker: broker, group: group, topic: input, producer: producer)
            for _ in 0..<6 {
                kills.kill(
                    try WorkerProcess(
                        broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags))
            }
            #expect(producer.finish() == nil)
            let last = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags)
            let (inputs, commitLag) = try committedToTheEnd(broker, input, count: total, group: group, last: last)
            last.signal(SIGTERM)
            #expect(last.wait(seconds: 20) == 0, "\(last.logText.suffix(3000))")
            let (seen, letters, missing) = try killLoopAccount(broker, inputs, output: output, deadLetter: dlq)
            #expect(missing.isEmpty, "\(missing.count) inputs without a record: \(missing.sorted())")
            // Each page's change sets in topic order (one page lives on one changes partition).
            let sets = try broker.readToEnd(changes, partitions: 3).filter {
                $0.value != nil
            }
            var chain = ChangeSetChain()
            chain.follow(sets)
            let detail = try chainDetail(chain.missing.first, sets, broker, state)
            #expect(chain.unreadable == 0, "\(chain.unreadable) change sets without hashes or a source offset")
            #expect(
                chain.missing.isEmpty && chain.backwards.isEmpty,
                "steps without a change set before: \(chain.missing.prefix(10)); back in time: \(chain.backwards.prefix(10))\n\(detail)"
            )
            print(
                "kill loop with change sets (\(kind.rawValue)): \(total) inputs over 30 pages, \(seen.count) records (\(seen.count - Set(seen).count) duplicates), \(sets.count) change sets: \(chain.steps) steps, \(chain.missing.count) missing, \(chain.backwards.count) back in time, \(chain.repeats) repeated; dead-lettered as worker-crash \(letters.count), lost \(missing.count); committed to the end \(String(format: "%.1f", commitLag)) s after the last worker started and the input was quiet; killed \(kills)"
            )
        }
    }

    /// SIGKILL and restart the worker while a producer keeps writing, against each broker: every input offset has a
    /// record (losses must be zero; duplicates are reported), and the group ends committed at every partition's end.
    @Test(arguments: TestBroker.Kind.allCases) func killLoopLosesNothingAndCommitsEverything(kind: TestBroker.Kind)
        async throws
    {
        try await offThePool {
            let broker = try TestBroker.start(kind)
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 3)
            let total = 900
            let producer = SteadyProducer(broker: broker, topic: input, count: total, pause: Self.pause)
            var kills = KillPoints(broker: broker, group: group, topic: input, producer: producer)
            var workers: [WorkerProcess] = []
            for _ in 0..<6 {
                let worker = try WorkerProcess(
                    broker: broker, input: input, output: output, deadLetter: dlq, group: group)
                workers.append(worker)
                kills.kill(worker)
            }
            #expect(producer.finish() == nil)
            let last = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: group)
            workers.append(last)
            let (inputs, commitLag) = try committedToTheEnd(broker, input, count: total, group: group, last: last)
            let (seen, letters, missing) = try killLoopAccount(broker, inputs, output: output, deadLetter: dlq)
            #expect(
                missing.isEmpty,
                "\(missing.count) inputs without a record: \(missing.sorted()); \(missing.isEmpty ? "" : warnings(workers))"
            )
            last.signal(SIGTERM)
            #expect(last.wait(seconds: 20) == 0)
            print(
                "kill loop (\(kind.rawValue)): \(total) inputs, \(seen.count) records, duplicates \(seen.count - Set(seen).count), dead-lettered as worker-crash \(letters.count), lost \(missing.count); every partition committed to its end \(String(format: "%.1f", commitLag)) s after the last worker started and the input was quiet; killed \(kills)"
            )
        }
    }
}

/// Where a kill loop's SIGKILLs land, chosen by how far each worker got rather than by a clock: as soon as its
/// partitions are assigned, or once the group's commits on `topic` have moved 1 to 60 messages past where they were
/// then (or cover everything the producer has written). Each wait has a deadline of 30 s, past which the worker is
/// killed all the same; the description counts the kills of each kind.
private struct KillPoints: CustomStringConvertible {
    let broker: TestBroker
    let group: String
    let topic: String
    let producer: SteadyProducer
    private var rng = SystemRandomNumberGenerator()
    private var atAssignment = 0, afterCommits = 0, atDeadline = 0

    init(broker: TestBroker, group: String, topic: String, producer: SteadyProducer) {
        (self.broker, self.group, self.topic, self.producer) = (broker, group, topic, producer)
    }

    var description: String {
        "\(atAssignment) at assignment, \(afterCommits) after commits moved, \(atDeadline) at a deadline"
    }

    mutating func kill(_ worker: WorkerProcess) {
        let assigned = worker.waitForLog("partitions assigned", seconds: 30)
        if !assigned {
            atDeadline += 1
        } else if Bool.random(using: &rng) {
            atAssignment += 1
        } else {
            let from = committedTotal(), step = Int.random(in: 1...60, using: &rng)
            let moved = waitUntil(seconds: 30, every: 0.2) {
                let now = committedTotal()
                return now >= from + step || now >= producer.written
            }
            if moved { afterCommits += 1 } else { atDeadline += 1 }
        }
        worker.signal(SIGKILL)
        _ = worker.wait(seconds: 10)
    }

    /// Messages committed on the topic's three partitions (none yet counts 0).
    private func committedTotal() -> Int {
        let offsets = (try? broker.committed(group: group, topic: topic, partitions: 3)) ?? [:]
        return offsets.values.reduce(0) { $0 + Int(max(0, $1)) }
    }
}

/// The inputs the topic holds once the producer is done, and how long after that the group committed every
/// partition to its end with `last` running (expected to happen).
private func committedToTheEnd(_ broker: TestBroker, _ input: String, count: Int, group: String, last: WorkerProcess)
    throws -> (inputs: [KafkaMessage], seconds: Double)
{
    let inputs = try broker.consume(input, partitions: 3, count: count)
    let quiet = Date()
    let committed = broker.waitForCommits(group: group, topic: input, ends: TestBroker.endOffsets(inputs))
    let seconds = Date().timeIntervalSince(quiet)
    #expect(committed, "\(last.logText.suffix(3000))")
    return (inputs, seconds)
}

/// What a kill loop's outputs account for: the record of each input (`partition/offset`, duplicates kept), the
/// inputs dead-lettered, and the inputs with neither. A SIGKILL while compiling is, to the crash-loop breaker, a
/// death while compiling (an OOM kill by a huge message looks the same), so two kills landing while one message is
/// compiled alone dead-letter it as `worker-crash`: accounted for, never lost, and rare (the second kill must land
/// in one message's compile). Anything else in the dead-letter topic, or more than two, is a failure.
private func killLoopAccount(_ broker: TestBroker, _ inputs: [KafkaMessage], output: String, deadLetter: String)
    throws -> (seen: [String], letters: Set<String>, missing: Set<String>)
{
    let dead = deadLetterSources(try broker.readToEnd(deadLetter, partitions: 3))
    let others = dead.filter { $0.code != DeadLetter.Code.workerCrash.rawValue }
    #expect(others.isEmpty, "dead letters other than worker-crash: \(others.prefix(5))")
    #expect(dead.count <= 2, "\(dead.count) worker-crash dead letters from six kills")
    let letters = Set(dead.map(\.source))
    let expected = Set(inputs.map(inputSource)).subtracting(letters)
    let seen = recordSources(
        try broker.readToEnd(output, partitions: 3) { expected.isSubset(of: recordSources($0)) })
    return (seen, letters, expected.subtracting(seen))
}

/// The workers' warnings and errors, for a test that found inputs without a record.
private func warnings(_ workers: [WorkerProcess]) -> String {
    workers.enumerated().map { n, w in
        let lines = w.logText.split(separator: "\n").filter {
            !$0.contains("\"level\":\"info\"") && !$0.contains("\"level\":\"debug\"")
        }
        return "worker \(n): \(lines.prefix(40).joined(separator: "\n"))"
    }.joined(separator: "\n")
}

/// For a failure: one page's change sets and latest layouts as the topics hold them (offsets, hashes, carried steps).
private func chainDetail(_ step: String?, _ sets: [KafkaMessage], _ broker: TestBroker, _ state: String) throws
    -> String
{
    guard let page = step?.split(separator: "@").first.map(String.init) else { return "" }
    var lines: [String] = []
    for m in sets where String(decoding: m.key ?? [], as: UTF8.self) == page {
        let h = m.value.flatMap(ChangeSetChain.hashes)
        lines.append(
            "change set @\(m.offset) input \(m.integerHeader(Wire.Header.sourceOffset) ?? -1): \(h?.base ?? "empty") > \(h?.target ?? "empty")"
        )
    }
    for m in try broker.readToEnd(state, partitions: 3) where String(decoding: m.key ?? [], as: UTF8.self) == page {
        let steps = m.headers.filter { $0.name == Wire.Header.stepInput }.map {
            String(decoding: $0.value ?? [], as: UTF8.self)
        }
        lines.append(
            "latest @\(m.offset) input \(m.integerHeader(Wire.Header.sourceOffset) ?? -1): \(m.value.map { ContentHash(of: $0).description } ?? "empty") carrying \(steps)"
        )
    }
    return lines.joined(separator: "\n")
}
