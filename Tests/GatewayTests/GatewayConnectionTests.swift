import Kafka
import LayoutKit
import NIOCore
import NIOEmbedded
import Ops
import Prometheus
import Testing

@testable import Gateway

/// The gateway's connection handling in process: the listener's own pipeline (`ListenerContext.addHandlers`) on NIO's
/// embedded channels, one embedded loop for all of them, its clock moved by hand. What a client reads is the bytes
/// the connection writes.
@Suite struct GatewayConnectionTests {
    /// A listener's context as `GatewayServer` builds it, on `loop`, with a ready status unless `ready` is false.
    final class Rig {
        let loop = EmbeddedEventLoop()
        let book: PageBook
        let hub: StreamHub
        let shared: ListenerContext
        let status = GatewayStatus()

        init(streams: Int = 100, ready: Bool = true, requestTimeout: TimeAmount = .seconds(10)) {
            var settings = GatewaySettings(
                kafka: KafkaConfiguration(bootstrapServers: "127.0.0.1:1"), latestLayoutTopic: "latest",
                changesTopic: "changes")
            settings.changeSetGraceMs = 0
            let registry = PrometheusCollectorRegistry()
            let metrics = GatewayMetrics(
                factory: MetricCatalog.factory(on: registry),
                exposition: MetricsExposition(registry: registry, build: []))
            hub = StreamHub(group: loop, metrics: metrics)
            book = PageBook(settings: settings, sink: hub)
            if ready { status.setCaughtUp(seconds: 0, messages: 0) }
            let limits = StreamLimits(
                descriptors: (1_024, 1_024), connections: 1_000, streams: streams, opsConnections: 32,
                boundBy: "--max-streams")
            shared = ListenerContext(
                endpoints: GatewayEndpoints(settings: settings, book: book, status: status, metrics: metrics),
                book: book, hub: hub, metrics: metrics, limits: limits, requestTimeout: requestTimeout)
        }

        /// A connection on the API port, as the listener sets it up.
        func connect() throws -> EmbeddedChannel {
            let channel = EmbeddedChannel(loop: loop)
            try shared.addHandlers(to: channel, port: .api)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            return channel
        }

        /// Every byte the connection has written since the last read, as text.
        func written(_ channel: EmbeddedChannel) throws -> String {
            loop.run()
            var text = ""
            while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
                text += buffer.readString(length: buffer.readableBytes) ?? ""
            }
            return text
        }

        func send(_ channel: EmbeddedChannel, _ text: String) throws {
            try channel.writeInbound(ByteBuffer(string: text))
            loop.run()
        }
    }

    static func record(_ n: Int) -> [UInt8] { Array(#"{"version":2,"n":\#(n)}"#.utf8) }
    static func hash(_ n: Int) -> ContentHash { ContentHash(of: record(n)) }
    static func get(_ path: String, _ headers: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nhost: gateway\r\n\(headers)\r\n"
    }

    /// The status lines of the responses in `text`, in order.
    static func statuses(_ text: String) -> [String] {
        text.matches(of: /HTTP\/1\.1 [0-9]{3} [^\r]*/).map { String($0.output) }
    }

    @Test func pipelinedRequestsAreAnsweredInOrderOnAKeptAliveConnection() throws {
        let rig = Rig()
        rig.book.storeRecord(Self.record(1), for: "k")
        let channel = try rig.connect()
        // Three requests in one read: the record, a revalidation with its tag, an unknown page.
        try rig.send(
            channel,
            Self.get("/v1/layouts/k") + Self.get("/v1/layouts/k", "if-none-match: \"\(Self.hash(1))\"\r\n")
                + Self.get("/v1/layouts/nothing"))
        let text = try rig.written(channel)
        #expect(
            Self.statuses(text) == ["HTTP/1.1 200 OK", "HTTP/1.1 304 Not Modified", "HTTP/1.1 404 Not Found"], "\(text)"
        )
        #expect(text.contains("etag: \"\(Self.hash(1))\""))
        #expect(text.contains(String(decoding: Self.record(1), as: UTF8.self)))
        #expect(text.contains("\"unknown-page\""))
        #expect(!text.contains("connection: close"))
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test func aConnectionWithoutAWholeRequestIsClosedAtTheRequestTimeout() throws {
        let rig = Rig(requestTimeout: .seconds(10))
        let channel = try rig.connect()
        try rig.send(channel, "GET /v1/layouts/k HTTP/1.1\r\nhost: ")  // a slowloris: never ends its head
        rig.loop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        rig.loop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
        #expect(try rig.written(channel).isEmpty)

        // An answered request starts the clock again: an idle kept-alive connection is closed in its turn.
        let kept = try rig.connect()
        rig.loop.advanceTime(by: .seconds(8))
        try rig.send(kept, Self.get("/v1/layouts/k"))
        #expect(Self.statuses(try rig.written(kept)) == ["HTTP/1.1 404 Not Found"])
        rig.loop.advanceTime(by: .seconds(8))
        #expect(kept.isActive)
        rig.loop.advanceTime(by: .seconds(3))
        #expect(!kept.isActive)
    }

    @Test func bytesThatAreNotHTTPGet400AndTheConnectionCloses() throws {
        let rig = Rig()
        let channel = try rig.connect()
        try? rig.send(channel, "\u{1}\u{2} nonsense\r\n\r\n")
        let text = try rig.written(channel)
        #expect(Self.statuses(text) == ["HTTP/1.1 400 Bad Request"], "\(text)")
        #expect(text.contains("\"bad-request\"") && text.contains("connection: close"))
        #expect(!channel.isActive)
    }

    @Test func aStreamGetsItsOpeningThenEachEventAndItsSlotIsFreedWhenItsClientLeaves() throws {
        let rig = Rig()
        rig.book.storeRecord(Self.record(1), for: "k")
        let channel = try rig.connect()
        try rig.send(channel, Self.get("/v1/layouts/k/changes"))
        let opening = try rig.written(channel)
        #expect(Self.statuses(opening) == ["HTTP/1.1 200 OK"])
        #expect(opening.contains("transfer-encoding: chunked") && opening.contains("content-type: text/event-stream"))
        #expect(opening.contains("event: record\nid: \(Self.hash(1))"), "\(opening)")
        #expect(rig.book.streamCount == 1)

        // A change set and its record: the stream is sent the change set, framed as a chunk.
        let target = StreamPosition(hash: Self.hash(2), offset: nil)
        rig.book.storeChangeSet(Array("cs 1->2".utf8), base: Self.hash(1), target: target, for: "k")
        rig.book.storeRecord(Self.record(2), for: "k")
        let event = try rig.written(channel)
        #expect(event.contains("event: change-set\nid: \(target)\ndata: cs 1->2\n\n"), "\(event)")
        #expect(!event.contains("event: record"))

        // Its client leaves: the book and the loop let the stream go, and nothing more is written to it.
        try channel.close().wait()
        #expect(rig.book.streamCount == 0)
        rig.book.storeRecord(Self.record(3), for: "k")
        #expect(try rig.written(channel).isEmpty)
    }

    @Test func aStreamThatCannotTakeAnEventGetsTheRecordOnceItCatchesUp() throws {
        let rig = Rig()
        rig.book.storeRecord(Self.record(1), for: "k")
        let channel = try rig.connect()
        try rig.send(channel, Self.get("/v1/layouts/k/changes"))
        _ = try rig.written(channel)
        channel.isWritable = false
        for n in 1..<3 {
            let target = StreamPosition(hash: Self.hash(n + 1), offset: nil)
            rig.book.storeChangeSet(Array("cs".utf8), base: Self.hash(n), target: target, for: "k")
            rig.book.storeRecord(Self.record(n + 1), for: "k")
        }
        #expect(try rig.written(channel).isEmpty)
        // Writable again: one record event, the page as it is now (no change set it missed).
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        let caughtUp = try rig.written(channel)
        #expect(caughtUp.contains("event: record\nid: \(Self.hash(3))"), "\(caughtUp)")
        #expect(!caughtUp.contains("change-set"))
    }

    @Test func aStreamPastTheLimitIsRefusedWith503AndRetryAfter() throws {
        let rig = Rig(streams: 1)
        rig.book.storeRecord(Self.record(1), for: "k")
        let first = try rig.connect()
        try rig.send(first, Self.get("/v1/layouts/k/changes"))
        #expect(Self.statuses(try rig.written(first)) == ["HTTP/1.1 200 OK"])
        let second = try rig.connect()
        try rig.send(second, Self.get("/v1/layouts/k/changes"))
        let refused = try rig.written(second)
        #expect(Self.statuses(refused) == ["HTTP/1.1 503 Service Unavailable"], "\(refused)")
        #expect(refused.contains("retry-after: 5") && refused.contains("\"too-many-streams\""))
        #expect(!second.isActive)
        // A record GET is still answered beside the full streams.
        let third = try rig.connect()
        try rig.send(third, Self.get("/v1/layouts/k"))
        #expect(Self.statuses(try rig.written(third)) == ["HTTP/1.1 200 OK"])
    }

    @Test func aGatewayNotReadyAnswers503AndAStoppingOneEndsItsStreamsWithTheLastChunk() throws {
        let starting = Rig(ready: false)
        let early = try starting.connect()
        try starting.send(early, Self.get("/v1/layouts/k"))
        let text = try starting.written(early)
        #expect(Self.statuses(text) == ["HTTP/1.1 503 Service Unavailable"] && text.contains("\"not-ready\""))

        let rig = Rig()
        rig.book.storeRecord(Self.record(1), for: "k")
        let channel = try rig.connect()
        try rig.send(channel, Self.get("/v1/layouts/k/changes"))
        _ = try rig.written(channel)
        rig.hub.loops.forEach { $0.endAll() }
        #expect(try rig.written(channel) == "0\r\n\r\n")
        #expect(!channel.isActive)
    }

    @Test func theConnectionGateStopsAcceptingAtItsLimitAndAcceptsAgainBelowIt() throws {
        let loop = EmbeddedEventLoop()
        let listener = EmbeddedChannel(loop: loop)
        let gate = ConnectionGate(limit: 2)
        gate.attach(listener)
        // What the gate last set (an embedded channel's getOption answers true for autoRead, whatever was set).
        func autoRead() -> Bool? {
            listener.options.first { $0.option is ChannelOptions.Types.AutoReadOption }?.value as? Bool
        }
        let connections = (0..<2).map { _ in EmbeddedChannel(loop: loop) }
        for c in connections { gate.admit(c) }
        loop.run()
        #expect(gate.count == 2)
        #expect(autoRead() == false)
        try connections[0].close().wait()
        loop.run()
        #expect(gate.count == 1)
        #expect(autoRead() == true)
    }
}
