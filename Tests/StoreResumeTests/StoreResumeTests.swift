import Foundation
import Kafka
import Logging
import PageStore
import StoreResume
import TestSupport
import Testing

/// The resume step the worker and the gateway share, against topics the test describes: which checkpoints are
/// trusted, what is forgotten when a topic was created again or deleted past a checkpoint, and what the log says.
@Suite struct StoreResumeTests {
    /// A topic as its brokers describe it.
    struct FakeTopic: StoreResume.Topic {
        var topic: String
        /// Every topic's id as the brokers give it (the pages topic's reader asks for both topics in one request).
        var ids: [String: String] = [:]
        var extents: [Int32: TopicRangeReader.Extent]
        var failure: KafkaError?

        func topicIDs(_ topics: [String], timeoutMs: Int32) throws(KafkaError) -> [String: String] {
            ids.filter { topics.contains($0.key) }
        }

        func extents(_ partitions: [Int32], timeoutMs: Int) throws(KafkaError) -> [Int32: TopicRangeReader.Extent] {
            if let failure { throw failure }
            return extents.filter { partitions.contains($0.key) }
        }
    }

    struct Rig {
        let store: PageStore
        let lines = LoggedLines()
        var logger: Logger { Logger(label: "test") { _ in RecordingLogHandler(lines: lines) } }

        init() throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(UUID().uuidString)")
            store = try PageStore.open(directory: dir.path, identity: "test").store
        }

        /// A page in `scope` and the checkpoint of `checkpoint`.
        func fill(_ scope: PageStore.Scope, page: String, checkpoint: Partition, at offset: Int64) throws {
            var batch = PageStore.Batch()
            batch.pages = [(PageKey(page, in: scope), StoredPage(position: 1, record: Array("{}".utf8)))]
            batch.checkpoints = [(checkpoint.topic, checkpoint.number, offset)]
            try store.write(batch)
        }

        func plan(_ pages: FakeTopic, _ sources: [StoreResume.Source], companion: (FakeTopic, [Int32])? = nil)
            throws(PageLoadError) -> StoreResume.Plan
        {
            try StoreResume(store: store, logger: logger).plan(
                pages: pages, sources, companion: companion.map { ($0.0, $0.1) })
        }
    }

    static func worker(_ p: Int32) -> StoreResume.Source {
        .init(checkpoint: Partition("in", p), read: p, scope: .partition(topic: "in", partition: p))
    }

    static func gateway(_ p: Int32) -> StoreResume.Source {
        .init(checkpoint: Partition("latest", p), read: p, scope: .whole)
    }

    @Test func checkpointsWithinTheirPartitionsAreWhereReadingStarts() throws {
        let rig = try Rig()
        try rig.fill(.partition(topic: "in", partition: 0), page: "a", checkpoint: Partition("in", 0), at: 5)
        let latest = FakeTopic(
            topic: "latest", ids: ["latest": "id-1"], extents: [0: .init(low: 0, end: 9), 1: .init(low: 0, end: 3)])
        let plan = try rig.plan(latest, [Self.worker(0), Self.worker(1)])
        #expect(plan.starts[Partition("in", 0)] == .checkpoint(5, .init(low: 0, end: 9)))
        #expect(plan.starts[Partition("in", 1)] == .beginning)
        #expect(plan.rebuilt == 0 && !plan.startsEmpty)
        #expect(try rig.store.page(PageKey("a", in: .partition(topic: "in", partition: 0))) != nil)
    }

    @Test func aCheckpointPastItsPartitionsEndRebuildsThatPartitionOnly() throws {
        let rig = try Rig()
        try rig.fill(.partition(topic: "in", partition: 0), page: "a", checkpoint: Partition("in", 0), at: 50)
        try rig.fill(.partition(topic: "in", partition: 1), page: "b", checkpoint: Partition("in", 1), at: 2)
        let latest = FakeTopic(topic: "latest", extents: [0: .init(low: 0, end: 9), 1: .init(low: 0, end: 3)])
        let plan = try rig.plan(latest, [Self.worker(0), Self.worker(1)])
        #expect(plan.starts[Partition("in", 0)] == .beginning)
        #expect(plan.starts[Partition("in", 1)] == .checkpoint(2, .init(low: 0, end: 3)))
        #expect(plan.rebuilt == 1)
        #expect(try rig.store.page(PageKey("a", in: .partition(topic: "in", partition: 0))) == nil)
        #expect(try rig.store.checkpoint(topic: "in", partition: 0) == nil)
        #expect(try rig.store.page(PageKey("b", in: .partition(topic: "in", partition: 1))) != nil)
        #expect(rig.lines.all.contains { $0.hasPrefix("page store checkpoint outside") && $0.contains("in[0]") })
    }

    @Test func aCheckpointBelowTheLowWatermarkInTheGatewaysOneScopeRebuildsEverything() throws {
        let rig = try Rig()
        try rig.fill(.whole, page: "a", checkpoint: Partition("latest", 0), at: 4)
        try rig.fill(.whole, page: "b", checkpoint: Partition("latest", 1), at: 2)
        try rig.store.write(
            {
                var b = PageStore.Batch()
                b.checkpoints = [("changes", 0, 7)]
                return b
            }())
        // Partition 1 was compacted past its checkpoint; partition 0's is fine, but its pages share the scope.
        let latest = FakeTopic(topic: "latest", extents: [0: .init(low: 0, end: 9), 1: .init(low: 3, end: 8)])
        let changes = FakeTopic(topic: "changes", extents: [0: .init(low: 0, end: 9)])
        let plan = try rig.plan(latest, [Self.gateway(0), Self.gateway(1)], companion: (changes, [0]))
        #expect(plan.starts.values.allSatisfy { $0 == .beginning } && plan.startsEmpty)
        #expect(plan.companion.isEmpty, "the change sets' checkpoint went with the pages")
        #expect(try rig.store.page(PageKey("a", in: .whole)) == nil)
        #expect(try rig.store.checkpoint(topic: "changes", partition: 0) == nil)
        #expect(plan.rebuilt == 2)
    }

    @Test func aReplacedPagesTopicForgetsEveryPageAndAReplacedCompanionItsCheckpoints() throws {
        let rig = try Rig()
        try rig.fill(.whole, page: "a", checkpoint: Partition("latest", 0), at: 4)
        let changes = FakeTopic(topic: "changes", extents: [0: .init(low: 0, end: 9)])
        var latest = FakeTopic(
            topic: "latest", ids: ["latest": "latest-1", "changes": "changes-1"], extents: [0: .init(low: 0, end: 9)])
        _ = try rig.plan(latest, [Self.gateway(0)], companion: (changes, [0]))  // records both ids
        try rig.store.write(
            {
                var b = PageStore.Batch()
                b.checkpoints = [("changes", 0, 7)]
                return b
            }())
        var plan = try rig.plan(latest, [Self.gateway(0)], companion: (changes, [0]))
        #expect(plan.starts[Partition("latest", 0)] == .checkpoint(4, .init(low: 0, end: 9)))
        #expect(plan.companion == [0: 7])

        latest.ids["changes"] = "changes-2"
        plan = try rig.plan(latest, [Self.gateway(0)], companion: (changes, [0]))
        #expect(plan.starts[Partition("latest", 0)] == .checkpoint(4, .init(low: 0, end: 9)))
        #expect(plan.companion.isEmpty)
        #expect(rig.lines.all.contains { $0.hasPrefix("page store checkpoint forgotten") && $0.contains("changes[0]") })

        latest.ids["latest"] = "latest-2"
        plan = try rig.plan(latest, [Self.gateway(0)], companion: (changes, [0]))
        #expect(plan.starts[Partition("latest", 0)] == .beginning && plan.rebuilt == 1)
        #expect(try rig.store.page(PageKey("a", in: .whole)) == nil)
        #expect(
            rig.lines.all.contains {
                $0.hasPrefix("page store partition read again from the beginning")
                    && $0.contains("topic-id-was=latest-1")
            })
    }

    @Test func aClusterFailureIsTheClustersAndNamesTheTopic() throws {
        let rig = try Rig()
        try rig.fill(.partition(topic: "in", partition: 0), page: "a", checkpoint: Partition("in", 0), at: 5)
        let latest = FakeTopic(
            topic: "latest", extents: [:], failure: .timedOut("no end of partition within 10000 ms"))
        do {
            _ = try rig.plan(latest, [Self.worker(0)])
            Issue.record("no error")
        } catch {
            guard case .kafka(let e) = error else {
                Issue.record("not the cluster's: \(error)")
                return
            }
            #expect(e.code == .timedOut && e.isRetriable && e.message.hasPrefix("topic latest partitions [0]: "))
        }
    }
}
