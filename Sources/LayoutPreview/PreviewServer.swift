public import Hummingbird
public import Logging
import Ops
public import ServiceLifecycle

/// The preview's HTTP side, on Hummingbird like the ops endpoints: the page (`/` and its files, compiled into the
/// binary from `clients/web`) and `/events`, the server-sent events a page draws from.
public enum PreviewServer {
    /// Serves until SIGINT or SIGTERM, then shuts the sources, the hub and the connections down.
    public static func run(
        host: String, port: Int, hub: PreviewHub, sources: [any Service], logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        try await application(
            host: host, port: port, hub: hub, sources: sources, logger: logger, onListening: onListening
        ).runService()
    }

    /// The application: the hub and the sources run as its services; `onListening` gets the bound port.
    public static func application(
        host: String, port: Int, hub: PreviewHub, sources: [any Service], logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            responder: PreviewEndpoints(hub: hub),
            configuration: .init(address: .hostname(host, port: port), serverName: "layout-worker-preview"),
            services: [hub] + sources,
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// Answers the page's files and its event stream.
public struct PreviewEndpoints: HTTPResponder {
    public typealias Context = BasicRequestContext
    let hub: PreviewHub
    let files: [String: (type: String, body: ByteBuffer)]

    public init(hub: PreviewHub) {
        self.hub = hub
        var files: [String: (type: String, body: ByteBuffer)] = [:]
        for file in WebFiles.all {
            files["/" + file.name] = (Self.contentType(of: file.name), ByteBuffer(string: file.text))
        }
        files["/"] = files["/index.html"]
        self.files = files
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        if let refused = PlainResponse.refusingWrites(request) { return refused }
        let path = request.uri.path
        if path == "/events" {
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
        guard let file = files[path] else { return PlainResponse.text(.notFound, "not found\n") }
        var headers = HTTPFields()
        headers[.contentType] = file.type
        headers[.cacheControl] = "no-store"
        // The page loads nothing but its own files; pictures may come from anywhere the models point.
        headers[.contentSecurityPolicy] =
            "default-src 'self'; img-src * data:; style-src 'self'; script-src 'self'; connect-src 'self'"
        let response = Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
        return request.method == .head ? response.createHeadResponse() : response
    }

    static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        return "application/octet-stream"
    }
}
