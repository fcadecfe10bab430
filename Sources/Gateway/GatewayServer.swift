public import Hummingbird
import Kafka
public import Logging
import Ops
public import Prometheus
import ServiceLifecycle

/// `layout-worker gateway` as one application: the HTTP endpoints and the topic feed (on its own thread) as its
/// service; SIGTERM and SIGINT stop both.
public enum GatewayServer {
    /// The application; `onListening` gets the bound port (useful with port 0).
    public static func application(
        settings: GatewaySettings, registry: PrometheusCollectorRegistry, build: [(String, String)], logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let book = PageBook(settings: settings)
        let status = GatewayStatus()
        let metrics = GatewayMetrics(registry: registry, build: build)
        return Application(
            responder: GatewayEndpoints(settings: settings, book: book, status: status, metrics: metrics),
            // Connections that send nothing (a half-sent request) are closed after 30 s; streams are not idle.
            server: .http1(configuration: .init(idleTimeout: .seconds(30))),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "layout-gateway"),
            services: [FeedService(feed: GatewayFeed(settings: settings, book: book, status: status, logger: logger))],
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }
}

/// The feed as a lifecycle service, on a thread of its own.
struct FeedService: Service {
    let feed: GatewayFeed

    func run() async throws {
        let status = feed.status
        let result: Result<Void, KafkaError> = await ThreadedWork.run(
            named: "layout-gateway-feed", stop: { status.requestStop() }
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
