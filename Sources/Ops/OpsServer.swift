import Dispatch
public import Hummingbird
public import Logging
import Prometheus

/// The ops endpoints on Hummingbird (SwiftNIO underneath: every connection is served concurrently on an event loop,
/// so idle or slow clients cannot delay a probe):
/// - `/healthz`: liveness: 200 while the worker loop keeps turning;
/// - `/readyz`: readiness: 200 when the worker is a member of its group, the brokers are reachable and the output
///   takes records; 503 with the reason otherwise;
/// - `/metrics`: Prometheus text.
/// GET and HEAD; any other method gets 405; query strings are ignored; idle connections close after `idleTimeout`.
public enum OpsServer {
    /// The application to run as a lifecycle service; `onListening` gets the bound port (useful with port 0).
    public static func application(
        address: OpsAddress, exposition: MetricsExposition, status: WorkerStatus, logger: Logger,
        idleTimeout: Duration = .seconds(30), onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            responder: OpsEndpoints(exposition: exposition, status: status),
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
public struct OpsEndpoints: HTTPResponder {
    public typealias Context = BasicRequestContext
    let exposition: MetricsExposition
    let status: WorkerStatus

    public init(exposition: MetricsExposition, status: WorkerStatus) {
        self.exposition = exposition
        self.status = status
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        guard OpsPaths.paths.contains(path) else { return PlainResponse.text(.notFound, "not found\n") }
        if let refused = PlainResponse.refusingWrites(request) { return refused }
        guard let answer = OpsPaths.answer(path, probes: status, metrics: exposition.render) else {
            return PlainResponse.text(.notFound, "not found\n")
        }
        let response = OpsServer.response(answer)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
