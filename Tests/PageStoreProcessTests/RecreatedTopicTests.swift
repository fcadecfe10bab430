import Delivery
import Foundation
import Kafka
import LayoutKit
import TestSupport
import Testing

@testable import ProcessTestSupport

/// Topics deleted and created again under the same names (an operator resetting them, a staging cluster rebuilt),
/// grown past the old checkpoints, then a gateway and a worker started on their old page stores: the store tells the
/// new topics from the old by their ids, reads the new ones from the beginning, forgets what only the old held, and
/// the log says which partition and why.
@Suite(.serialized) struct RecreatedTopicTests {
    @Test func aGatewayOnItsOldStoreAnswersTheNewTopicsOnly() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (changes, state) = (uniqueName("changes"), uniqueName("latest"))
            try broker.createTopics([changes, state], partitions: 2)
            try broker.produce(state, (0..<50).map { ("page-\($0)", GatewayPageStoreTests.record($0)) })
            let dir = broker.workDirectory.appendingPathComponent("gateway-store").path
            var gateway = try GatewayPageStoreTests.startGateway(broker, changes: changes, state: state, dir: dir)
            #expect(GatewayPageStoreTests.caughtUpAfter(gateway) == 50)
            try GatewayPageStoreTests.stop(gateway)

            try broker.deleteTopics([changes, state])
            try broker.createTopics([changes, state], partitions: 2)
            // 70 pages, 20 of them new: past every old checkpoint, and 20 old pages no longer there.
            try broker.produce(state, (20..<90).map { ("page-\($0)", GatewayPageStoreTests.record($0, 1)) })
            gateway = try GatewayPageStoreTests.startGateway(broker, changes: changes, state: state, dir: dir)
            #expect(GatewayPageStoreTests.caughtUpAfter(gateway) == 70, "\(gateway.logText.suffix(2000))")
            var wrong: [String] = []
            for n in 0..<90 {
                let got = try RawHTTP.get(gateway.port, "/v1/layouts/page-\(n)")
                let expected = n < 20 ? 404 : 200
                if got.status != expected || (n >= 20 && got.body != GatewayPageStoreTests.record(n, 1)) {
                    wrong.append("page-\(n): \(got.status)")
                }
            }
            #expect(wrong.isEmpty, "\(wrong.count) pages answered wrong: \(wrong.prefix(8))")
            let log = gateway.logText
            for p in 0..<2 {
                // Each partition of both topics, as `topic[number]`: the latest layouts' and the change sets'.
                #expect(
                    log.contains(#""partition":"\#(state)[\#(p)]""#)
                        && log.contains(#""partition":"\#(changes)[\#(p)]""#)
                        && log.contains(
                            "page store partition read again from the beginning: its topic was created again"),
                    "\(log.suffix(2000))")
            }
            #expect(log.contains("topic-id-was"))
            try GatewayPageStoreTests.stop(gateway)
        }
    }

    @Test func aWorkerOnItsOldStoreStepsPagesFromTheNewTopic() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state, group) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest"),
                uniqueName("g")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 1)
            let stateDir = broker.workDirectory.appendingPathComponent("worker-store").path
            let flags = ["--changes-topic", changes, "--latest-layout-topic", state, "--page-store", stateDir]
            try broker.produce(input, (0..<5).map { ("k\($0)", emptyResultsList("old-\($0)")) })
            var worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags)
            #expect(broker.waitForCommits(group: group, topic: input, ends: [0: 5]), "\(worker.logText.suffix(2000))")
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 20) == 0)
            let record = try #require(try broker.readToEnd(output, partitions: 1).first?.value)

            // The latest-layout and change-set topics reset; the new latest-layout topic holds pages k10...k17, made
            // from inputs at positions 0...4 (older than the next input), eight messages: past the old checkpoint (5).
            try broker.deleteTopics([changes, state])
            try broker.createTopics([changes, state], partitions: 1)
            let layouts: [(key: String?, value: [UInt8]?, headers: [KafkaHeader])] = (10..<18).map { n in
                (
                    "k\(n)", record,
                    [
                        KafkaHeader(Wire.Header.sourceTopic, text: input),
                        KafkaHeader(Wire.Header.sourceOffset, text: String(min(n - 10, 4))),
                    ]
                )
            }
            try broker.produce(state, layouts)
            // New inputs for k0 (a page only the old topic had) and k12 (one only the new topic has).
            try broker.produce(input, [("k0", emptyResultsList("new-0")), ("k12", emptyResultsList("new-12"))])
            worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags)
            #expect(broker.waitForCommits(group: group, topic: input, ends: [0: 7]), "\(worker.logText.suffix(2000))")
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 20) == 0)
            let sets = try broker.readToEnd(changes, partitions: 1)
            func base(_ key: String) -> String? {
                guard let m = sets.last(where: { $0.key == Array(key.utf8) }), let value = m.value,
                    let hashes = try? JSONSerialization.jsonObject(with: Data(value)) as? [String: Any]
                else { return "no change set for \(key)" }
                return (hashes["base"] as? [String: Any])?["hash"] as? String
            }
            #expect(base("k0") == nil, "k0 is not on the new topic: its change set starts from empty")
            #expect(base("k12") == ContentHash(of: record).description, "k12 steps from the new topic's layout")
            #expect(
                worker.logText.contains("page store partition read again from the beginning"),
                "\(worker.logText.suffix(2000))")
        }
    }
}
