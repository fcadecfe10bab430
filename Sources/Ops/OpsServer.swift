import Dispatch
public import Hummingbird
public import Logging
import Prometheus

/// The ops endpoints on Hummingbird (SwiftNIO underneath: every connection is served concurrently on an event loop,
/// so idle or slow clients cannot delay a probe):
/// - `/healthz`: liveness: 200 while the command's loop keeps turning;
/// - `/readyz`: readiness: 200 while the command takes traffic (`serve`: a member of its group, the brokers
///   reachable, the output taking records; `replay`: reading its range); 503 with the reason otherwise;
/// - `/metrics`: Prometheus text.
/// `serve` and `replay` mount it; the gateway and the preview answer the same paths (`OpsPaths`) on their own edge.
/// GET and HEAD; any other method gets 405; query strings are ignored; idle connections close after `idleTimeout`.
public enum OpsServer {
    /// The application to run as a lifecycle service; `onListening` gets the bound port (useful with port 0).
    public static func application(
        address: OpsAddress, exposition: MetricsExposition, probes: some Probed, logger: Logger,
        idleTimeout: Duration = .seconds(30), onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            responder: OpsEndpoints(exposition: exposition, probes: probes),
            server: .http1(
                configuration: .init(idleTimeout: .nanoseconds(Int64(idleTimeout.components.seconds) * 1_000_000_000))),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "layout-worker"),
            onServerRunning: { channel in
                onListening(channel.localAddress?.port ?? address.port)
            },
            logger: logger)
    }
}

extension OpsServer {
    /// An `OpsPaths` answer as a Hummingbird response (not cached).
    public static func response(_ answer: OpsPaths.Answer) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = answer.contentType
        headers[.cacheControl] = "no-store"
        return Response(
            status: .init(code: answer.status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

/// Answers the three ops paths.
public struct OpsEndpoints<Probes: Probed>: HTTPResponder {
    public typealias Context = BasicRequestContext
    let exposition: MetricsExposition
    let probes: Probes

    public init(exposition: MetricsExposition, probes: Probes) {
        self.exposition = exposition
        self.probes = probes
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        guard OpsPaths.paths.contains(path) else { return PlainResponse.text(.notFound, "not found\n") }
        if let refused = PlainResponse.refusingWrites(request) { return refused }
        guard let answer = OpsPaths.answer(path, probes: probes, metrics: exposition.render) else {
            return PlainResponse.text(.notFound, "not found\n")
        }
        let response = OpsServer.response(answer)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
