public import ConfigReload
import Kafka
public import Logging
import NIOCore
import NIOPosix
import Ops
public import Prometheus
public import ServiceLifecycle

/// `layout-worker gateway` as lifecycle services: the HTTP listeners (the API port and the ops port, on SwiftNIO
/// event loops, one per core) and the topic feed (on its own thread); SIGTERM and SIGINT stop both.
public enum GatewayServer {
    /// Where it listens, once it does.
    public struct Bound: Sendable {
        public var api: Int
        public var ops: Int?
    }

    /// The services; `onListening` gets the bound ports (useful with port 0). `compilers` compiles navigation states
    /// from the origin and `POST /v1/compile` (nil: neither is served).
    public static func services(
        settings: GatewaySettings, registry: PrometheusCollectorRegistry, build: [(String, String)], logger: Logger,
        compilers: CompilerSlot? = nil, onListening: @escaping @Sendable (Bound, StreamLimits) -> Void = { _, _ in }
    ) -> (services: [any Service], metrics: GatewayMetrics) {
        let limits = StreamLimits.forThisProcess(heldBytes: settings.maxBytes, configured: settings.maxStreams)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let loops = Array(group.makeIterator())
        let metrics = GatewayMetrics(
            factory: MetricCatalog.factory(on: registry),
            exposition: MetricsExposition(registry: registry, build: build), tallies: RecordTallies(loops: loops))
        let hub = StreamHub(group: group, metrics: metrics)
        // The states from the origin: the book drops one when a page is published under its key.
        let originCache = settings.origin.map { OriginCache(maxBytes: $0.maxBytes) }
        let book = PageBook(settings: settings, sink: hub, originStates: originCache)
        let status = GatewayStatus()
        metrics.limits(limits)
        var origin: OriginStates?
        if let originSettings = settings.origin, let originCache, let compilers {
            origin = OriginStates(
                settings: originSettings, compilers: compilers, cache: originCache, group: group, metrics: metrics,
                streams: book, sink: hub, logger: logger)
        }
        let shared = ListenerContext(
            endpoints: GatewayEndpoints(
                settings: settings, book: book, status: status, metrics: metrics, logger: logger, origin: origin,
                compilers: compilers, bodies: RecordBodies(loops: loops)), book: book,
            hub: hub, metrics: metrics, limits: limits, requestTimeout: .seconds(Int64(settings.requestTimeoutSeconds)))
        let services: [any Service] = [
            HTTPService(
                settings: settings, group: group, shared: shared, logger: logger, onListening: onListening),
            FeedService(
                feed: GatewayFeed(settings: settings, book: book, status: status, metrics: metrics, logger: logger)),
        ]
        return (services, metrics)
    }
}

/// The two listeners until a graceful shutdown; then streams are ended and the event loops stopped.
struct HTTPService: Service {
    let settings: GatewaySettings
    let group: MultiThreadedEventLoopGroup
    let shared: ListenerContext
    let logger: Logger
    let onListening: @Sendable (GatewayServer.Bound, StreamLimits) -> Void

    func run() async throws {
        do {
            let api = ConnectionGate(limit: shared.limits.connections)
            let apiChannel = try await listen(settings.host, settings.port, .api, api)
            var opsChannel: (any Channel)?
            if let host = settings.opsHost {
                opsChannel = try await listen(
                    host, settings.opsPort, .ops, ConnectionGate(limit: shared.limits.opsConnections))
            }
            logger.info("gateway limits", metadata: ["limits": "\(shared.limits)"])
            let heartbeats = shared.hub.startHeartbeats(every: settings.heartbeatSeconds)
            // Navigation states followed by streams are fetched again on a timer of their own.
            let refresh = shared.origin.map { origin in
                let loop = group.next()
                return Task { await origin.run(on: loop) }
            }
            let bound = GatewayServer.Bound(
                api: apiChannel.localAddress?.port ?? settings.port, ops: opsChannel?.localAddress?.port)
            logger.info(
                "gateway listening",
                metadata: [
                    "api": .string("\(settings.host):\(bound.api)"),
                    "ops": .string(bound.ops.map { "\(settings.opsHost ?? ""):\($0)" } ?? "off"),
                    "latest-layout-topic": .string(settings.latestLayoutTopic),
                    "change-set-topic": .string(settings.changesTopic),
                ])
            onListening(bound, shared.limits)
            try? await gracefulShutdown()
            logger.info("gateway stopping: listeners closed, streams ended")
            for task in heartbeats { task.cancel() }
            refresh?.cancel()
            try? await apiChannel.close()
            try? await opsChannel?.close()
            await shared.hub.endAll()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
        logger.info("gateway stopped")
    }

    private func listen(_ host: String, _ port: Int, _ role: GatewayEndpoints.Port, _ gate: ConnectionGate)
        async throws -> any Channel
    {
        let shared = self.shared
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1_024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: false)
            // Each connection keeps its last receive buffer for the next read: 256 bytes to start with (NIO's
            // default is 2 KiB, half of what a stream would cost); a larger request grows it as it is read.
            .childChannelOption(
                .recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65_536)
            )
            .childChannelInitializer { channel in
                gate.admit(channel)
                return channel.eventLoop.makeCompletedFuture { try shared.addHandlers(to: channel, port: role) }
            }
            .bind(host: host, port: port).get()
        gate.attach(channel)
        return channel
    }
}

/// The feed as a lifecycle service, on a thread of its own.
struct FeedService: Service {
    let feed: GatewayFeed

    func run() async throws {
        let status = feed.status
        let result: Result<Void, KafkaError> = await ThreadedWork.run(
            named: "layout-gateway-feed", stop: status.stop
        ) { [feed] in
            do throws(KafkaError) {
                try feed.run { status.stopRequested }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
