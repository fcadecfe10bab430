import Delivery
import Foundation
import Kafka
import LayoutCompiler
import LayoutDiff
import LayoutJSON
import LayoutKit
import LayoutPreview
import LayoutRecord
import Logging
import Ops
import Serve
import TestSupport
import Testing

@testable import ProcessTestSupport

@Suite(.serialized) struct PreviewFollowTests {
    /// `preview --topic T --key K`: records and change sets of one key, in topic order, with and without
    /// content-type headers; other keys are ignored.
    @Test func followsOneKeyOfATopic() async throws {
        let broker = try TestBroker()
        let topic = "layouts-\(UUID().uuidString.prefix(8))"
        try broker.createTopics([topic], partitions: 2)
        let a = try Samples.record("search-page")
        let b = try Samples.record("grouped-results")
        let c = try Samples.record("empty-results")
        let aToB = LayoutDiffer().diff(from: try RecordOutline(bytes: a), to: try RecordOutline(bytes: b), key: "k")
        let bToC = LayoutDiffer().diff(from: try RecordOutline(bytes: b), to: try RecordOutline(bytes: c), key: "k")
        let recordType = KafkaHeader(Wire.Header.contentType, text: Wire.recordContentType)
        let changeType = KafkaHeader(Wire.Header.contentType, text: Wire.changeSetContentType)
        try broker.produce(
            topic,
            [
                (key: "other", value: c, headers: [recordType]),
                (key: "k", value: a, headers: [recordType]),
                (key: "k", value: aToB.bytes, headers: [changeType]),
                (key: "other", value: Array("not json".utf8), headers: []),
            ], partition: 0)
        let hub = PreviewHub(pageNames: ["k"])
        let follower = TopicFollower(
            kafka: broker.configuration, topic: topic, key: "k", hub: hub, logger: Logger(label: "test"))
        let task = Task { try await follower.run() }
        defer { task.cancel() }
        #expect(await waitUntil(seconds: 300) { await hub.snapshot.pages[0].record == b })
        // A change set without a content-type header is recognised by its kind.
        try broker.produce(topic, [(key: "k", value: bToC.bytes, headers: [])], partition: 0)
        #expect(await waitUntil(seconds: 300) { await hub.snapshot.pages[0].record == c })
        #expect(await hub.snapshot.pages[0].problem == nil)
        #expect(await hub.snapshot.problem == nil)
        // A change set delivered twice changes nothing; one for another base (a → b while c is shown) is the page's
        // problem, and the record stays.
        try broker.produce(
            topic, [(key: "k", value: bToC.bytes, headers: [changeType]), (key: "k", value: aToB.bytes, headers: [])],
            partition: 0)
        #expect(
            await waitUntil(seconds: 300) {
                await hub.snapshot.pages[0].problem?.contains("fetch the full record") == true
            })
        #expect(await hub.snapshot.pages[0].record == c)
    }

    @Test func aMissingTopicIsWaitedFor() async throws {
        let broker = try TestBroker()
        let topic = "later-\(UUID().uuidString.prefix(8))"
        let hub = PreviewHub(pageNames: ["k"])
        let follower = TopicFollower(
            kafka: broker.configuration, topic: topic, key: "k", hub: hub, logger: Logger(label: "test"))
        let task = Task { try await follower.run() }
        defer { task.cancel() }
        #expect(await waitUntil(seconds: 300) { await hub.snapshot.problem?.contains("does not exist") == true })
        // The preview's /readyz says why it is not ready.
        let waiting = hub.status.readiness
        #expect(!waiting.passes && waiting.detail.contains("does not exist"), "\(waiting)")
        try broker.createTopics([topic], partitions: 1)
        let a = try Samples.record("search-page")
        try broker.produce(topic, [(key: "k", value: a)], partition: 0)
        #expect(await waitUntil(seconds: 300) { await hub.snapshot.pages[0].record == a })
        #expect(await hub.snapshot.problem == nil)
        #expect(hub.status.readiness == .passing("ready; 1 page(s)"))
    }
}

@Suite struct PreviewCommandTests {
    @Test func argumentsThatCannotWorkAreRefused() async throws {
        try await offThePool {
            let sample = Fixtures.path("samples/search-page.json")
            for (arguments, message) in [
                ([String](), "give one or more response files, or --topic and --key"),
                (["--topic", "t"], "--topic needs --key"),
                (["--topic", "t", "--key", "k", sample], "either response files or --topic"),
                (["--key", "k", sample], "--key goes with --topic"),
                (["--port", "70000", sample], "port must be 0…65535, not 70000"),
            ] {
                let r = try runCLI(["preview"] + arguments)
                #expect(r.status == 64, "\(arguments)")
                #expect(r.err.contains(message), "\(arguments): \(r.err)")
            }
        }
    }
}
