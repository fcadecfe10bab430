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

/// Records of the samples, compiled with the default config.
private func sampleRecord(_ name: String) throws -> [UInt8] {
    let config = try ConfigFile.load(Fixtures.path("config/default.yaml")).get()
    return try LayoutCompiler(config: config).compile(Fixtures.bytes("samples/\(name).json")).get().bytes
}

@Suite struct PreviewHubTests {
    @Test func recordsReachTheConnectionsAsChangeSets() async throws {
        let a = try sampleRecord("search-page")
        let b = try sampleRecord("grouped-results")
        let hub = PreviewHub(pageNames: ["page"])
        var events = await hub.subscribe().makeAsyncIterator()
        #expect(await events.next() == .snapshot(pages: [PreviewPage(name: "page")], problem: nil))
        await hub.show(a, page: 0)
        guard case .change(0, let fromEmpty)? = await events.next() else { Issue.record("no change set"); return }
        #expect(try ChangeSetApplier().apply(fromEmpty, to: nil) == a)
        await hub.show(b, page: 0)
        guard case .change(0, let aToB)? = await events.next() else { Issue.record("no change set"); return }
        #expect(try ChangeSetApplier().apply(aToB, to: a) == b)
        // The same record again changes nothing; a new connection starts from what the page shows.
        await hub.show(b, page: 0)
        await hub.report("x", page: 0)
        #expect(await events.next() == .problem(page: 0, message: "x"))
        var late = await hub.subscribe().makeAsyncIterator()
        #expect(
            await late.next() == .snapshot(pages: [PreviewPage(name: "page", record: b, problem: "x")], problem: nil))
        // A record clears the page's problem.
        await hub.show(a, page: 0)
        guard case .change? = await events.next() else { Issue.record("no change set"); return }
        #expect(await events.next() == .problem(page: 0, message: nil))
    }

    @Test func aChangeSetForAnotherBaseIsAProblemAndChangesNothing() async throws {
        let a = try sampleRecord("search-page")
        let b = try sampleRecord("grouped-results")
        let c = try sampleRecord("empty-results")
        let bToC = LayoutDiffer().diff(from: try RecordOutline(bytes: b), to: try RecordOutline(bytes: c), key: nil)
        let hub = PreviewHub(pageNames: ["page"])
        await hub.show(a, page: 0)
        var events = await hub.subscribe().makeAsyncIterator()
        _ = await events.next()
        await hub.apply(bToC.bytes, page: 0, origin: "t[0]@7")
        guard case .problem(0, let message?)? = await events.next() else { Issue.record("no problem"); return }
        #expect(message.hasPrefix("t[0]@7: "))
        #expect(message.contains("fetch the full record"))
        #expect(await hub.snapshot.pages[0].record == a)
        // Malformed bytes too, and a record that is not one.
        await hub.apply(Array("{".utf8), page: 0, origin: "t[0]@8")
        guard case .problem(0, let malformed?)? = await events.next() else { Issue.record("no problem"); return }
        #expect(malformed.hasPrefix("t[0]@8: "))
        await hub.show(Array("[1]".utf8), page: 0)
        guard case .problem(0, let notRecord?)? = await events.next() else { Issue.record("no problem"); return }
        #expect(notRecord.hasPrefix("not a layout record"))
        #expect(await hub.snapshot.pages[0].record == a)
    }

    @Test func eventsAreOneLineOfJSONEach() throws {
        let record = try sampleRecord("search-page")
        let events: [PreviewEvent] = [
            .snapshot(pages: [PreviewPage(name: "a\n\"b\"", record: record, problem: "line 1\nline 2")], problem: nil),
            .change(page: 3, changeSet: Array(#"{"x":"\n"}"#.utf8)),
            .problem(page: nil, message: "config: bad\nworse"),
        ]
        for event in events {
            let bytes = event.serverSentEvent
            #expect(bytes.starts(with: Array("data: ".utf8)))
            #expect(bytes.suffix(2) == [0x0A, 0x0A])
            #expect(!bytes.dropLast(2).contains(0x0A) && !bytes.contains(0x0D), "one data line")
            let json = try JSONSerialization.jsonObject(with: Data(bytes.dropFirst(6).dropLast(2))) as! [String: Any]
            switch event {
            case .snapshot:
                let page = (json["pages"] as! [[String: Any]])[0]
                #expect(Array((page["record"] as! String).utf8) == record, "the record's text, byte for byte")
                #expect(page["name"] as? String == "a\n\"b\"")
                #expect(page["problem"] as? String == "line 1\nline 2")
            case .change:
                #expect(json["page"] as? Int == 3)
                #expect(json["changeSet"] as? String == #"{"x":"\n"}"#)
            default:
                #expect(json["page"] is NSNull)
                #expect(json["message"] as? String == "config: bad\nworse")
            }
        }
        #expect(PreviewEvent.ping.serverSentEvent == Array(": ping\n\n".utf8))
    }
}

@Suite(.serialized) struct PreviewFollowTests {
    /// `preview --topic T --key K`: records and change sets of one key, in topic order, with and without
    /// content-type headers; other keys are ignored.
    @Test func followsOneKeyOfATopic() async throws {
        let broker = try TestBroker()
        let topic = "layouts-\(UUID().uuidString.prefix(8))"
        try broker.createTopics([topic], partitions: 2)
        let a = try sampleRecord("search-page")
        let b = try sampleRecord("grouped-results")
        let c = try sampleRecord("empty-results")
        let aToB = LayoutDiffer().diff(from: try RecordOutline(bytes: a), to: try RecordOutline(bytes: b), key: "k")
        let bToC = LayoutDiffer().diff(from: try RecordOutline(bytes: b), to: try RecordOutline(bytes: c), key: "k")
        let recordType = KafkaHeader(OutputHeader.contentType, text: OutputHeader.recordContentType)
        let changeType = KafkaHeader(OutputHeader.contentType, text: OutputHeader.changeSetContentType)
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
        #expect(await eventually { await hub.snapshot.pages[0].record == b })
        // A change set without a content-type header is recognised by its kind.
        try broker.produce(topic, [(key: "k", value: bToC.bytes, headers: [])], partition: 0)
        #expect(await eventually { await hub.snapshot.pages[0].record == c })
        #expect(await hub.snapshot.pages[0].problem == nil)
        #expect(await hub.snapshot.problem == nil)
        // A change set delivered twice changes nothing; one for another base (a → b while c is shown) is the page's
        // problem, and the record stays.
        try broker.produce(
            topic, [(key: "k", value: bToC.bytes, headers: [changeType]), (key: "k", value: aToB.bytes, headers: [])],
            partition: 0)
        #expect(await eventually { await hub.snapshot.pages[0].problem?.contains("fetch the full record") == true })
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
        #expect(await eventually { await hub.snapshot.problem?.contains("does not exist") == true })
        // The preview's /readyz says why it is not ready.
        let waiting = hub.status.readiness
        #expect(!waiting.passes && waiting.detail.contains("does not exist"), "\(waiting)")
        try broker.createTopics([topic], partitions: 1)
        let a = try sampleRecord("search-page")
        try broker.produce(topic, [(key: "k", value: a)], partition: 0)
        #expect(await eventually { await hub.snapshot.pages[0].record == a })
        #expect(await hub.snapshot.problem == nil)
        #expect(hub.status.readiness == .passing("ready; 1 page(s)"))
    }
}

/// Whether `condition` holds within `seconds` (checked every 100 ms). Generous: in the full suite, synchronous tests
/// that block on brokers and child processes hold both of this machine's cooperative threads for most of the run
/// (the follow test took 165 s there, 3 s alone), and the hub (an actor) waits for them. A passing test returns as
/// soon as the condition holds, so the bound only matters when something is wrong.
private func eventually(seconds: Double = 600, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return false
}

@Suite struct PreviewCommandTests {
    @Test func argumentsThatCannotWorkAreRefused() throws {
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

@Suite struct ResponseFilesSourceTests {
    /// One file as two pages, a response deleted and written again, a config replaced: each page follows its file.
    @Test func pagesFollowTheirFiles() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lw-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("mapping.yaml").path
        let response = dir.appendingPathComponent("page.json").path
        try Data(Fixtures.bytes("config/default.yaml")).write(to: URL(fileURLWithPath: config))
        try Data(Fixtures.bytes("samples/search-page.json")).write(to: URL(fileURLWithPath: response))
        let hub = PreviewHub(pageNames: [response, response])
        let source = ResponseFilesSource(
            config: config, responses: [response, response], hub: hub, maxInputBytes: 8 << 20,
            interval: .milliseconds(20), logger: Logger(label: "test"))
        let task = Task { try await source.run() }
        defer { task.cancel() }
        let first = try sampleRecordWithSource("search-page", file: response)
        #expect(await eventually { await hub.snapshot.pages.map(\.record) == [first, first] })

        try FileManager.default.removeItem(atPath: response)
        #expect(
            await eventually { await hub.snapshot.pages.allSatisfy { $0.problem?.contains("cannot read") == true } })
        #expect(await hub.snapshot.pages.map(\.record) == [first, first], "the last layout stays")
        try Data(Fixtures.bytes("samples/empty-results.json")).write(to: URL(fileURLWithPath: response))
        let second = try sampleRecordWithSource("empty-results", file: response)
        #expect(await eventually { await hub.snapshot.pages.map(\.record) == [second, second] })
        #expect(await hub.snapshot.pages.allSatisfy { $0.problem == nil })

        // A config that does not load is the preview's problem; the next good one recompiles every page.
        try Data("renderers: [\n".utf8).write(to: URL(fileURLWithPath: config))
        #expect(await eventually { await hub.snapshot.problem?.contains("mapping.yaml") == true })
        try Data(Fixtures.bytes("config/default.yaml")).write(to: URL(fileURLWithPath: config))
        #expect(await eventually { await hub.snapshot.problem == nil })
        #expect(await hub.snapshot.pages.map(\.record) == [second, second])
    }
}

/// A sample compiled with the default config, its source named `file` (as the preview names it).
private func sampleRecordWithSource(_ name: String, file: String) throws -> [UInt8] {
    let config = try ConfigFile.load(Fixtures.path("config/default.yaml")).get()
    return try LayoutCompiler(config: config).compile(
        Fixtures.bytes("samples/\(name).json"), source: RecordSource(file: file)
    ).get().bytes
}
