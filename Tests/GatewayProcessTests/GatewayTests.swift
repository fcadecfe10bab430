import Delivery
import Foundation
import Kafka
import LayoutFeed
import LayoutKit
import Synchronization
import TestSupport
import Testing

@testable import ProcessTestSupport

/// A test broker with the topics, a worker with change sets and a ready gateway.
struct GatewayRig {
    let broker: TestBroker
    let input: String, changes: String, state: String
    let worker: WorkerProcess
    var gateway: GatewayProcess
    var port: Int { gateway.port }
    var opsPort: Int { gateway.opsPort }

    init(partitions: Int32) throws {
        broker = try TestBroker()
        let (output, dlq) = (uniqueName("out"), uniqueName("dlq"))
        (input, changes, state) = (uniqueName("in"), uniqueName("changes"), uniqueName("latest"))
        try broker.createTopics([input, output, dlq, changes, state], partitions: partitions)
        worker = try WorkerProcess(
            broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
            extra: ["--changes-topic", changes, "--latest-layout-topic", state])
        gateway = try GatewayProcess(broker: broker, changes: changes, state: state)
        try gateway.waitUntilReady()
    }

    /// Replaces the gateway by a new process on the same port.
    mutating func replaceGateway() throws {
        kill(gateway.process.processIdentifier, SIGTERM)
        gateway.process.waitUntilExit()
        // Its stderr is JSON lines only, from where it listens to its stop.
        let lines = gateway.logText.split(separator: "\n")
        let notJSON = lines.filter { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) == nil }
        #expect(notJSON.isEmpty, "\(notJSON)")
        #expect(
            lines.contains { $0.contains("\"gateway listening\"") && $0.contains(":\(gateway.port)\"") }
                && lines.contains { $0.contains("\"gateway stopped\"") }, "\(gateway.logText.suffix(2000))")
        gateway = try GatewayProcess(
            broker: broker, changes: changes, state: state, listenPort: gateway.port, opsPort: gateway.opsPort,
            pageStoreDirectory: gateway.pageStoreDirectory)
        try gateway.waitUntilReady()
    }

}

/// The gateway end to end: a worker with change sets, a gateway, and clients over plain HTTP.
@Suite(.serialized) struct GatewayTests {
    static let steps = ["samples/search-page.json", "samples/grouped-results.json", "samples/empty-results.json"]

    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        Array(try piped(Data(bytes), through: "gzip", ["-dc"]).output)
    }

    @Test func aPageFollowsItsResponsesThroughTheGateway() async throws {
        try await offThePool {
            let rig = try GatewayRig(partitions: 2)
            let (broker, input, state, port, worker) = (rig.broker, rig.input, rig.state, rig.port, rig.worker)

            // A page never laid out: 404 with a JSON error; a stream opened now waits for its first record.
            let unknown = try RawHTTP.get(port, "/v1/layouts/home")
            #expect(unknown.status == 404 && String(decoding: unknown.body, as: UTF8.self).contains(#""unknown-page""#))
            let live = try RawHTTP(port: port)
            live.request("/v1/layouts/home/changes")

            func produce(_ step: Int) throws {
                try broker.produce(input, [("home", Fixtures.bytes(Self.steps[step]))])
            }
            try produce(0)
            #expect(live.read(timeout: 60) { _ in live.events.count >= 1 }, "\(worker.logText.suffix(2000))")
            let first = try #require(live.events.first)
            #expect(first.event == "record")

            // GET: the record byte for byte as published on the latest-layout topic, its hash as ETag.
            let got = try RawHTTP.get(port, "/v1/layouts/home")
            #expect(got.status == 200 && got.headers["etag"] == "\"\(first.id.prefix(16))\"")
            #expect(first.id.contains("@"), "an event id names the record's position: \(first.id)")
            #expect(got.headers["content-type"] == Wire.recordContentType)
            #expect(got.headers["cache-control"]?.contains("max-age") == true)
            #expect(got.body == Array(first.data.utf8))
            let published = try broker.readToEnd(state, partitions: 2).last { $0.key == Array("home".utf8) }
            #expect(published?.value == got.body)
            #expect(
                try RawHTTP.get(port, "/v1/layouts/home", headers: ["If-None-Match": "\"\(first.id.prefix(16))\""])
                    .status
                    == 304)
            let zipped = try RawHTTP.get(port, "/v1/layouts/home", headers: ["Accept-Encoding": "gzip"])
            #expect(zipped.headers["content-encoding"] == "gzip" && zipped.body.count < got.body.count / 3)
            #expect(try Self.gunzip(zipped.body) == got.body)
            #expect(try RawHTTP.get(port, "/v1/layouts/home", method: "HEAD").status == 200)

            // The next response: the stream gets a change set that turns its record into the new one.
            try produce(1)
            #expect(live.read(timeout: 60) { _ in live.events.count >= 2 })
            let second = try #require(live.events.dropFirst().first)
            #expect(second.event == "change-set")
            var held = try ChangeSetApplier().apply(Array(second.data.utf8), to: Array(first.data.utf8))
            #expect(ContentHash(of: held).description == second.id.prefix(16))
            #expect(try waitUntil(seconds: 30, every: 0.1) { try RawHTTP.get(port, "/v1/layouts/home").body == held })

            // A stream resumed from the first record's hash gets the change set since it, not the record.
            let resumed = try RawHTTP(port: port)
            resumed.request("/v1/layouts/home/changes", headers: ["Last-Event-ID": first.id])
            #expect(resumed.read(timeout: 20) { _ in resumed.events.count >= 1 })
            #expect(resumed.events.first?.event == "change-set" && resumed.events.first?.id == second.id)

            // A stream dropped, the page changed meanwhile, the stream resumed: it ends on the same record as one
            // that never dropped.
            resumed.disconnect()
            try produce(2)
            #expect(live.read(timeout: 60) { _ in live.events.count >= 3 })
            let third = try #require(live.events.dropFirst(2).first)
            held = try ChangeSetApplier().apply(Array(third.data.utf8), to: held)
            let again = try RawHTTP(port: port)
            again.request("/v1/layouts/home/changes", headers: ["Last-Event-ID": second.id])
            #expect(again.read(timeout: 20) { _ in again.events.count >= 1 })
            let dropped = try ChangeSetApplier().apply(Array(second.data.utf8), to: Array(first.data.utf8))
            let caughtUp = try ChangeSetApplier().apply(Array(try #require(again.events.first).data.utf8), to: dropped)
            #expect(caughtUp == held)
            // A GET answers the latest-layout topic's record, which may reach the gateway after the change set.
            #expect(try waitUntil(seconds: 30, every: 0.1) { try RawHTTP.get(port, "/v1/layouts/home").body == held })

            // Bad requests: clear errors, and the gateway keeps serving.
            let badResume = try RawHTTP(port: port)
            badResume.request("/v1/layouts/home/changes", headers: ["Last-Event-ID": "not-a-hash"])
            let bad = badResume.response()
            #expect(bad.status == 400 && String(decoding: bad.body, as: UTF8.self).contains("bad-last-event-id"))
            #expect(try RawHTTP.get(port, "/v1/layouts/" + String(repeating: "k", count: 5_000)).status == 414)
            #expect(try RawHTTP.get(port, "/v1/layouts/a%2").status == 400)
            #expect(try RawHTTP.get(port, "/v1/layouts/home", method: "POST").status == 405)
            // Hundreds of idle streams and a request that never finishes its headers: the rest keeps working.
            let idle = try (0..<300).map { _ in
                let c = try RawHTTP(port: port)
                c.request("/v1/layouts/home/changes")
                return c
            }
            let slow = try RawHTTP(port: port)
            slow.sendRaw("GET /v1/layouts/home HTTP/1.1\r\nHost: 127.0.0.1\r\n")  // headers never finished
            #expect(idle.allSatisfy { c in c.read(timeout: 20) { _ in c.events.count >= 1 } })
            #expect(try RawHTTP.get(port, "/v1/layouts/home").body == held)
            let metrics = String(decoding: try RawHTTP.get(rig.opsPort, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains("layout_gateway_not_modified_total 1"))
            let streams = metrics.firstMatch(of: /layout_gateway_streams ([0-9.]+)/).flatMap { Double($0.output.1) }
            #expect((streams ?? 0) >= 300, "\(metrics)")
            #expect(metrics.contains(#"layout_gateway_lag_messages{topic="changes"}"#))
            #expect(try RawHTTP.get(port, "/v1/layouts/home").status == 200)
        }
    }

    /// The same response published again costs nothing downstream: the page keeps its hash (a client holding it
    /// gets 304), no event reaches its streams, no change set is published, and its position still moves on (the
    /// latest-layout topic and a new stream's record id name the newer input).
    @Test func theSameResponseAgainCostsNothingDownstream() async throws {
        try await offThePool {
            let rig = try GatewayRig(partitions: 1)
            let (broker, input, state, port, worker) = (rig.broker, rig.input, rig.state, rig.port, rig.worker)
            let live = try RawHTTP(port: port)
            live.request("/v1/layouts/home/changes")
            let page = Fixtures.bytes(Self.steps[0])
            try broker.produce(input, [("home", page)])
            #expect(live.read(timeout: 60) { _ in live.events.count >= 1 }, "\(worker.logText.suffix(2000))")
            let first = try #require(live.events.first)
            let hash = String(first.id.prefix(16))
            #expect(first.event == "record" && first.id == "\(hash)@0")

            try broker.produce(input, [("home", page)])
            let home = Array("home".utf8)
            var latest: [KafkaMessage] = []
            #expect(
                try waitUntil(seconds: 30, every: 0.1) {
                    latest = try broker.readToEnd(state, partitions: 1).filter { $0.key == home }
                    return latest.count >= 2
                }, "\(worker.logText.suffix(2000))")
            #expect(latest.count == 2 && latest[0].value == latest[1].value)
            #expect(
                latest.map { $0.header(Wire.Header.sourceOffset).map { String(decoding: $0, as: UTF8.self) } } == [
                    "0", "1",
                ])
            // The gateway took the newer position: a stream opened now starts from the record at input 1.
            var opened = ""
            #expect(
                try waitUntil(seconds: 30, every: 0.1) {
                    let c = try RawHTTP(port: port)
                    c.request("/v1/layouts/home/changes")
                    _ = c.read(timeout: 5) { _ in c.events.count >= 1 }
                    opened = c.events.first?.id ?? ""
                    c.disconnect()
                    return opened == "\(hash)@1"
                }, "a new stream opened on \(opened)")
            let got = try RawHTTP.get(port, "/v1/layouts/home", headers: ["If-None-Match": "\"\(hash)\""])
            #expect(got.status == 304)

            // The next different response: the live stream's next event is its change set, from the first record.
            try broker.produce(input, [("home", Fixtures.bytes(Self.steps[1]))])
            #expect(live.read(timeout: 60) { _ in live.events.count >= 2 })
            #expect(live.events.count == 2 && live.events[1].event == "change-set", "\(live.events.map(\.event))")
            let applied = try ChangeSetApplier().apply(Array(live.events[1].data.utf8), to: Array(first.data.utf8))
            #expect(ContentHash(of: applied).description == live.events[1].id.prefix(16))
            let sets = try broker.readToEnd(rig.changes, partitions: 1).filter { $0.key == home && $0.value != nil }
            #expect(sets.count == 2, "one change set from empty and one for the new response, none for the same one")
        }
    }

    /// LayoutKit's feed (URLSession, on Linux too) follows a page the same way, also when its gateway is replaced
    /// (it reconnects with the hash it holds). The feed runs off the cooperative pool, which the test's own
    /// synchronous waits hold.
    @Test func theSwiftFeedFollowsAPage() async throws {
        var rig = try GatewayRig(partitions: 1)
        let port = rig.port
        let key = "shop/home page"
        let path = "/v1/layouts/" + (key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key)

        let seen = Mutex<[LayoutFeed.Record]>([])
        let feed = LayoutFeed(gateway: URL(string: "http://127.0.0.1:\(port)")!, key: key)
        let following = Task(executorPreference: ThreadPerJobExecutor.shared) {
            for try await record in feed.records(retry: .milliseconds(200)) { seen.withLock { $0.append(record) } }
        }
        defer { following.cancel() }
        var latest: [UInt8] = []
        for (step, file) in Self.steps.enumerated() {
            // The gateway goes away and a new one takes its place: the feed reconnects with the hash it holds.
            if step == 2 { try rig.replaceGateway() }
            try rig.broker.produce(rig.input, [(key, Fixtures.bytes(file))])
            let previous = latest
            let arrived = try waitUntil(seconds: 60, every: 0.1) {
                let got = try RawHTTP.get(port, path)
                guard got.status == 200, got.body != previous else { return false }
                latest = got.body
                return seen.withLock { $0.last?.bytes } == got.body
            }
            #expect(arrived, "step \(step): \(rig.worker.logText.suffix(1000))")
            #expect(seen.withLock { $0.last?.hash } == ContentHash(of: latest))
        }
        // Every record the feed showed is one the page had, in order, none twice.
        #expect(Set(seen.withLock { $0.map(\.hash) }).count == seen.withLock { $0.count })
        #expect(seen.withLock { $0.count } == Self.steps.count)
    }
}
