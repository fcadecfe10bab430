public import Logging
import NIOCore
public import Ops
public import ServiceLifecycle

/// The preview's HTTP side, on the `PlainHTTPServer` the ops endpoints use: the page (`/` and its files, compiled
/// into the binary from `clients/web`), `/events`, the server-sent events a page draws from, and the ops paths every
/// command serves (`OpsPaths`: `/healthz`, `/readyz` from the hub's `PreviewStatus`, `/metrics` from `metrics`).
public enum PreviewServer {
    /// Serves until SIGINT or SIGTERM, then shuts the sources, the hub and the connections down.
    public static func run(
        host: String, port: Int, hub: PreviewHub, sources: [any Service], logger: Logger,
        metrics: @escaping @Sendable () -> [UInt8] = { [] }, onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        let server = application(
            host: host, port: port, hub: hub, metrics: metrics, logger: logger, onListening: onListening)
        try await ServiceGroup(
            configuration: .init(
                services: ([server, hub] + sources).map {
                    .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup)
                }, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        ).run()
    }

    /// The HTTP server (run the hub and the sources beside it); `onListening` gets the bound port.
    public static func application(
        host: String, port: Int, hub: PreviewHub, metrics: @escaping @Sendable () -> [UInt8] = { [] }, logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> PlainHTTPServer<PreviewEndpoints> {
        PlainHTTPServer(
            host: host, port: port, serverName: "preview", idleTimeout: nil,
            responder: PreviewEndpoints(hub: hub, metrics: metrics), logger: logger, onListening: onListening)
    }
}

/// Answers the page's files, its event stream and the ops paths.
public struct PreviewEndpoints: PlainResponder {
    let hub: PreviewHub
    let metrics: @Sendable () -> [UInt8]
    let page = EmbeddedPage(files: WebFiles.all)

    public init(hub: PreviewHub, metrics: @escaping @Sendable () -> [UInt8] = { [] }) {
        self.hub = hub
        self.metrics = metrics
    }

    public func respond(to request: PlainRequest) async -> PlainResponse {
        if let refused = PlainResponse.refusingWrites(request) { return refused }
        if let answer = OpsPaths.answer(request.path, probes: hub.status, metrics: metrics) {
            return OpsServer.response(answer)
        }
        if request.path == "/events" {
            let events = await hub.subscribe()
            return PlainResponse(
                status: .ok, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store"],
                body: .streamed { write in
                    for await event in events.cancelOnGracefulShutdown() {
                        try await write(ByteBuffer(bytes: event.serverSentEvent))
                    }
                })
        }
        if request.path == "/explain" {
            // ?page=P&section=S&row=R: the row's renderer chain, as `layout-worker explain` prints it.
            guard let p = request.query["page"].flatMap({ Int($0) }),
                let s = request.query["section"].flatMap({ Int($0) }), let r = request.query["row"].flatMap({ Int($0) })
            else { return PlainResponse.text(.badRequest, "explain takes ?page=P&section=S&row=R (numbers)\n") }
            return PlainResponse.text(.ok, await hub.explain(page: p, section: s, row: r) + "\n")
        }
        return page.response(for: request) ?? PlainResponse.text(.notFound, "not found\n")
    }
}
