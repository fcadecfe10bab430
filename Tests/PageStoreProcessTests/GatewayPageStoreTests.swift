import Foundation
import Kafka
import LayoutKit
import PageStore
import TestSupport
import Testing

@testable import ProcessTestSupport

/// The gateway with its page store: every page the topic holds is answered whatever the memory budget, a restart
/// reads only what its checkpoints do not cover, a killed gateway's store reopens equal to the topic, and streams
/// resume from the change sets the store holds across a restart.
@Suite(.serialized) struct GatewayPageStoreTests {
    /// A 45 KB latest layout for page `n` at version `v` (the gateway serves the bytes as published).
    static func record(_ n: Int, _ v: Int = 0) -> [UInt8] {
        Array(#"{"page":\#(n),"version":\#(v),"#.utf8) + Fixtures.bytes("samples/search-page.json").dropFirst()
    }

    static func changeSet(from: [UInt8]?, to: [UInt8]) -> [UInt8] {
        let base = from.map { #"{"hash":"\#(ContentHash(of: $0))"}"# } ?? "null"
        return Array(
            #"{"kind":"\#(Wire.changeSetKind)","version":2,"base":\#(base),"target":{"hash":"\#(ContentHash(of: to))"},"steps":[]}"#
                .utf8)
    }

    static func startGateway(
        _ broker: TestBroker, changes: String, state: String, dir: String, extra: [String] = []
    ) throws -> GatewayProcess {
        let gateway = try GatewayProcess(
            broker: broker, changes: changes, state: state, pageStoreDirectory: dir, extra: extra)
        try #require(gateway.port > 0, "\(gateway.logText)")
        #expect(
            try waitUntil(seconds: 60, every: 0.1) { try RawHTTP.get(gateway.opsPort, "/readyz").status == 200 },
            "\(gateway.logText.suffix(2000))")
        return gateway
    }

    /// SIGTERM, and the gateway exits 0 (its page store written and closed).
    static func stop(_ gateway: GatewayProcess) throws {
        kill(gateway.process.processIdentifier, SIGTERM)
        gateway.process.waitUntilExit()
        #expect(gateway.process.terminationStatus == 0, "\(gateway.logText.suffix(1500))")
    }

    /// The latest-layout messages the gateway read before it was ready.
    static func caughtUpAfter(_ gateway: GatewayProcess) -> Int? {
        let line = gateway.logText.split(separator: "\n").last { $0.contains("gateway caught up") }
        return line.flatMap { $0.firstMatch(of: /"latest-layouts-read":([0-9]+)/) }.flatMap { Int($0.output.1) }
    }

    @Test func everyPageIsAnsweredPastTheMemoryBudgetAndARestartReadsOnlyWhatItMissed() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (changes, state) = (uniqueName("changes"), uniqueName("latest"))
            try broker.createTopics([changes, state], partitions: 2)
            try broker.produce(state, (0..<200).map { ("page-\($0)", Self.record($0)) })
            let dir = broker.workDirectory.appendingPathComponent("gateway-store").path
            // About 44 pages' worth of memory for 200 pages.
            let budget = ["--page-cache-bytes", "2000000"]
            var gateway = try Self.startGateway(broker, changes: changes, state: state, dir: dir, extra: budget)
            #expect(Self.caughtUpAfter(gateway) == 200)
            for round in 0..<2 {
                var wrong: [String] = []
                for n in 0..<200 {
                    let got = try RawHTTP.get(gateway.port, "/v1/layouts/page-\(n)")
                    if got.status != 200 || got.body != Self.record(n) { wrong.append("page-\(n): \(got.status)") }
                }
                #expect(
                    wrong.isEmpty,
                    "round \(round): \(wrong.count) of 200 not answered with their record: \(wrong.prefix(5))")
            }
            let metrics = String(decoding: try RawHTTP.get(gateway.opsPort, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"layout_gateway_page_lookups_total{result="disk"}"#), "\(metrics)")
            #expect(metrics.contains("layout_gateway_page_store_up 1"), "\(metrics)")
            // Stopped, 10 pages change, started again: it reads those 10 only, and answers them new.
            try Self.stop(gateway)
            try broker.produce(state, (0..<10).map { ("page-\($0)", Self.record($0, 1)) })
            gateway = try Self.startGateway(broker, changes: changes, state: state, dir: dir, extra: budget)
            #expect(Self.caughtUpAfter(gateway) == 10, "\(gateway.logText.suffix(1500))")
            #expect(gateway.logText.contains("page store reopened"))
            for n in [0, 9, 10, 199] {
                #expect(try RawHTTP.get(gateway.port, "/v1/layouts/page-\(n)").body == Self.record(n, n < 10 ? 1 : 0))
            }
            // A deleted store is made anew from the whole topic.
            try Self.stop(gateway)
            try FileManager.default.removeItem(atPath: dir)
            gateway = try Self.startGateway(broker, changes: changes, state: state, dir: dir, extra: budget)
            #expect(Self.caughtUpAfter(gateway) == 210)
            #expect(try RawHTTP.get(gateway.port, "/v1/layouts/page-3").body == Self.record(3, 1))
        }
    }

    @Test func aKilledGatewaysStoreReopensEqualToTheTopic() async throws {
        // A function of its own: Swift 6.3.1's region checker crashes on this body inside a closure.
        try await offThePool { try Self.killedGatewaysStoreReopensEqualToTheTopic() }
    }

    private static func killedGatewaysStoreReopensEqualToTheTopic() throws {
        let broker = try TestBroker()
        let (changes, state) = (uniqueName("changes"), uniqueName("latest"))
        try broker.createTopics([changes, state], partitions: 2)
        let dir = broker.workDirectory.appendingPathComponent("gateway-store").path
        let gateway = try Self.startGateway(broker, changes: changes, state: state, dir: dir)
        // Heavy writes: 1,500 latest layouts over 100 pages while the gateway takes them in; killed in the middle.
        nonisolated(unsafe) let producer = broker  // used by the writer thread only while this test waits
        let writer = Thread {
            for v in 0..<15 { try? producer.produce(state, (0..<100).map { ("page-\($0)", Self.record($0, v)) }) }
        }
        writer.start()
        _ = waitUntil(seconds: 30, every: 0.1) {
            (try? RawHTTP.get(gateway.port, "/v1/layouts/page-99"))?.body == Self.record(99, 5)
        }
        kill(gateway.process.processIdentifier, SIGKILL)
        gateway.process.waitUntilExit()
        #expect(waitUntil(seconds: 120, every: 0.1) { writer.isFinished })
        // Every page of the reopened store equals the last value of its key on the topic.
        let latest = try broker.readToEnd(state, partitions: 2)
        #expect(latest.count == 1_500)
        let restarted = try Self.startGateway(broker, changes: changes, state: state, dir: dir)
        #expect(restarted.logText.contains("page store reopened"))
        let read = Self.caughtUpAfter(restarted) ?? 0
        #expect(read < 1_500, "a restart read \(read) latest layouts: all of them")
        try Self.stop(restarted)
        let (store, _) = try PageStore.open(directory: dir, identity: nil)
        defer { store.close() }
        var last: [String: [UInt8]] = [:]
        for m in latest { last[String(decoding: m.key ?? [], as: UTF8.self)] = m.value }
        let stored = try store.pages(in: .whole)
        #expect(stored.count == 100)
        #expect(stored.filter { last[$0.key] != $0.page.record }.isEmpty)

    }

    @Test func aStreamResumesFromTheStoresChangeSetsAfterARestart() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (changes, state) = (uniqueName("changes"), uniqueName("latest"))
            try broker.createTopics([changes, state], partitions: 1)
            let dir = broker.workDirectory.appendingPathComponent("gateway-store").path
            var gateway = try Self.startGateway(broker, changes: changes, state: state, dir: dir)
            let versions = (0..<4).map { Self.record(1, $0) }
            try broker.produce(state, [("k", versions[0])])
            for v in 1..<4 {
                try broker.produce(changes, [("k", Self.changeSet(from: versions[v - 1], to: versions[v]))])
                try broker.produce(state, [("k", versions[v])])
            }
            #expect(
                try waitUntil(seconds: 30, every: 0.1) {
                    try RawHTTP.get(gateway.port, "/v1/layouts/k").body == versions[3]
                })
            // Both topics read (they are read independently): a stream from version 1 gets both change sets here too.
            let sinceOne = ["Last-Event-ID": ContentHash(of: versions[1]).description]
            #expect(
                waitUntil(seconds: 30, every: 0.1) {
                    guard let before = try? RawHTTP(port: gateway.port) else { return false }
                    defer { before.disconnect() }
                    before.request("/v1/layouts/k/changes", headers: sinceOne)
                    return before.read(timeout: 2) { _ in before.events.count >= 2 }
                        && before.events.map(\.event) == ["change-set", "change-set"]
                }, "\(gateway.logText.suffix(1500))")
            try Self.stop(gateway)  // writes the store before it exits
            let before = gateway.logText
            gateway = try Self.startGateway(broker, changes: changes, state: state, dir: dir)
            // Holding version 1: the two change sets since it, not the 45 KB record.
            let resumed = try RawHTTP(port: gateway.port)
            resumed.request("/v1/layouts/k/changes", headers: sinceOne)
            let got = resumed.read(timeout: 20) { _ in resumed.events.count >= 2 }
            let seen = resumed.events.map { "\($0.event) \($0.id)" }
            let why =
                "sent \(seen); before the restart:\n\(before.suffix(1500))\nafter:\n\(gateway.logText.suffix(1500))"
            #expect(got, "\(why)")
            #expect(resumed.events.map(\.event) == ["change-set", "change-set"], "\(why)")
            #expect(resumed.events.last?.id == ContentHash(of: versions[3]).description, "\(why)")
        }
    }
}
