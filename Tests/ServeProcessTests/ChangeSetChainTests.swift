import Foundation
import Kafka
import LayoutKit
import TestSupport
import Testing

@testable import ProcessTestSupport

/// Every step a page takes has its change set on the change-set topic, whatever dies when. The window this closes:
/// a worker killed after a page's latest layout is acknowledged and before its change set is (and before the offset
/// commit); the worker taking over loads the page at the new position and is delivered that input again.
@Suite(.serialized) struct ChangeSetChainTests {
    /// The change-set topic does not exist yet, so each step's record and latest layout are acknowledged while its
    /// change set waits; the worker is killed there, the topic created, and the next worker (on the same page store,
    /// or on a new one that reads the latest-layout topic) publishes the two steps' change sets, linked.
    @Test(arguments: [true, false]) func aStepWhoseChangeSetDiedWithItsWorkerIsPublishedByTheNext(sameStore: Bool)
        async throws
    {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state, group) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest"),
                uniqueName("g")
            )
            try broker.createTopics([input, output, dlq, state], partitions: 1)
            let store = broker.workDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
            func flags(_ dir: String) -> [String] {
                [
                    "--changes-topic", changes, "--latest-layout-topic", state, "--page-store", dir,
                    "--producer-property", "allow.auto.create.topics=false",
                ]
            }
            try broker.produce(input, [("p", emptyResultsList("step-0")), ("p", emptyResultsList("step-1"))])
            let first = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags(store))
            // Both records published, and the page's latest layout (one for the batch: the second input's) stored.
            let records = try broker.consume(output, partitions: 1, count: 2, timeout: 60)
            let latest = try broker.consume(state, partitions: 1, count: 1, timeout: 60)
            #expect(
                records.count == 2 && latest.first?.integerHeader(Wire.Header.sourceOffset) == 1,
                "\(first.logText.suffix(3000))")
            first.signal(SIGKILL)
            _ = first.wait(seconds: 10)

            try broker.createTopics([changes], partitions: 1)
            let next = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                extra: flags(sameStore ? store : store + "-other"))
            let sets = try broker.consume(changes, partitions: 1, count: 2, timeout: 60)
            let chain = sets.compactMap { $0.value.flatMap(ChangeSetChain.hashes) }
            #expect(chain.count == 2, "change sets: \(sets.count)\n\(next.logText.suffix(3000))")
            // The first from the empty page, the second from the first's target; each to the layout published.
            let published = records.compactMap { $0.value.map { ContentHash(of: $0).description } }
            #expect(chain.map(\.base) == [nil, published.first], "\(chain)")
            #expect(chain.map(\.target) == published, "\(chain) against \(published)")
            next.signal(SIGTERM)
            #expect(next.wait(seconds: 20) == 0)
        }
    }
}
