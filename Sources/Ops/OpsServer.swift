public import Logging
import NIOCore
import NIOHTTP1

/// The ops endpoints on a `PlainHTTPServer` (SwiftNIO: every connection is served concurrently on an event loop,
/// so idle or slow clients cannot delay a probe):
/// - `/healthz`: liveness: 200 while the command's loop keeps turning;
/// - `/readyz`: readiness: 200 while the command takes traffic (`serve`: a member of its group, the brokers
///   reachable, the output taking records; `replay`: reading its range); 503 with the reason otherwise;
/// - `/metrics`: Prometheus text.
/// `serve` and `replay` mount it; the gateway and the preview answer the same paths (`OpsPaths`) on their own edge.
/// GET and HEAD; any other method gets 405; query strings are ignored; idle connections close after `idleTimeout`.
public enum OpsServer {
    /// The server to run as a lifecycle service; `onListening` gets the bound port (useful with port 0).
    public static func application<Probes: Probed>(
        address: OpsAddress, exposition: MetricsExposition, probes: Probes, logger: Logger,
        idleTimeout: Duration = .seconds(30), onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> PlainHTTPServer<OpsEndpoints<Probes>> {
        PlainHTTPServer(
            host: address.host, port: address.port, serverName: "ops endpoints", idleTimeout: idleTimeout,
            responder: OpsEndpoints(exposition: exposition, probes: probes), logger: logger, onListening: onListening)
    }

    /// An `OpsPaths` answer as a response (not cached).
    public static func response(_ answer: OpsPaths.Answer) -> PlainResponse {
        PlainResponse(
            status: HTTPResponseStatus(statusCode: answer.status),
            headers: ["Content-Type": answer.contentType, "Cache-Control": "no-store"],
            body: .bytes(ByteBuffer(bytes: answer.body)))
    }
}

/// Answers the three ops paths.
public struct OpsEndpoints<Probes: Probed>: PlainResponder {
    let exposition: MetricsExposition
    let probes: Probes

    public init(exposition: MetricsExposition, probes: Probes) {
        self.exposition = exposition
        self.probes = probes
    }

    public func respond(to request: PlainRequest) async -> PlainResponse {
        guard OpsPaths.paths.contains(request.path) else { return PlainResponse.text(.notFound, "not found\n") }
        if let refused = PlainResponse.refusingWrites(request) { return refused }
        guard let answer = OpsPaths.answer(request.path, probes: probes, metrics: exposition.render) else {
            return PlainResponse.text(.notFound, "not found\n")
        }
        return OpsServer.response(answer)
    }
}
