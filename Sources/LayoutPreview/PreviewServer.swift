public import Hummingbird
public import Logging
import Ops
public import ServiceLifecycle

/// The preview's HTTP side, on Hummingbird like the ops endpoints: the page (`/` and its files, compiled into the
/// binary from `clients/web`), `/events`, the server-sent events a page draws from, and the ops paths every
/// command serves (`OpsPaths`: `/healthz`, `/readyz` from the hub's `PreviewStatus`, `/metrics` from `metrics`).
public enum PreviewServer {
    /// Serves until SIGINT or SIGTERM, then shuts the sources, the hub and the connections down.
    public static func run(
        host: String, port: Int, hub: PreviewHub, sources: [any Service], logger: Logger,
        metrics: @escaping @Sendable () -> [UInt8] = { [] }, onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        try await application(
            host: host, port: port, hub: hub, sources: sources, logger: logger, metrics: metrics,
            onListening: onListening
        ).runService()
    }

    /// The application: the hub and the sources run as its services; `onListening` gets the bound port.
    public static func application(
        host: String, port: Int, hub: PreviewHub, sources: [any Service], logger: Logger,
        metrics: @escaping @Sendable () -> [UInt8] = { [] }, onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            responder: PreviewEndpoints(hub: hub, metrics: metrics),
            configuration: .init(address: .hostname(host, port: port), serverName: "layout-worker-preview"),
            services: [hub] + sources,
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// Answers the page's files, its event stream and the ops paths.
public struct PreviewEndpoints: HTTPResponder {
    public typealias Context = BasicRequestContext
    let hub: PreviewHub
    let metrics: @Sendable () -> [UInt8]
    let page = EmbeddedPage(files: WebFiles.all)

    public init(hub: PreviewHub, metrics: @escaping @Sendable () -> [UInt8] = { [] }) {
        self.hub = hub
        self.metrics = metrics
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        if let refused = PlainResponse.refusingWrites(request) { return refused }
        if let answer = OpsPaths.answer(request.uri.path, probes: hub.status, metrics: metrics) {
            let response = OpsServer.response(answer)
            return request.method == .head ? response.createHeadResponse() : response
        }
        if request.uri.path == "/events" {
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-store"
            let events = await hub.subscribe()
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    for await event in events.cancelOnGracefulShutdown() {
                        try await writer.write(ByteBuffer(bytes: event.serverSentEvent))
                    }
                    try await writer.finish(nil)
                })
        }
        if request.uri.path == "/explain" {
            // ?page=P&section=S&row=R: the row's renderer chain, as `layout-worker explain` prints it.
            let query = request.uri.queryParameters
            guard let p = query["page"].flatMap({ Int(String($0)) }),
                let s = query["section"].flatMap({ Int(String($0)) }), let r = query["row"].flatMap({ Int(String($0)) })
            else { return PlainResponse.text(.badRequest, "explain takes ?page=P&section=S&row=R (numbers)\n") }
            return PlainResponse.text(.ok, await hub.explain(page: p, section: s, row: r) + "\n")
        }
        return page.response(for: request) ?? PlainResponse.text(.notFound, "not found\n")
    }
}
