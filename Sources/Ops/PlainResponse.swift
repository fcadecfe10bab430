public import NIOCore
public import NIOHTTP1

/// What the project's plain HTTP endpoints (ops probes, the preview) answer: a status, headers and a body, whole or
/// written as it comes (server-sent events). Plain-text answers are not cached, and the endpoints are read-only.
public struct PlainResponse: Sendable {
    public var status: HTTPResponseStatus
    public var headers: HTTPHeaders
    public var body: Body

    public enum Body: Sendable {
        /// The whole body (its length is sent; a HEAD answer sends the length alone).
        case bytes(ByteBuffer)
        /// Written chunk by chunk through `write` until the closure returns (chunked transfer encoding).
        case streamed(@Sendable (_ write: @Sendable (ByteBuffer) async throws -> Void) async throws -> Void)
    }

    public init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text response that is not cached.
    public static func text(_ status: HTTPResponseStatus, _ body: String) -> PlainResponse {
        PlainResponse(
            status: status,
            headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"],
            body: .bytes(ByteBuffer(string: body)))
    }

    /// The 405 for any method but GET and HEAD, or nil when `request` may go on.
    public static func refusingWrites(_ request: PlainRequest) -> PlainResponse? {
        guard request.method != .GET && request.method != .HEAD else { return nil }
        var response = text(.methodNotAllowed, "method not allowed: use GET or HEAD\n")
        response.headers.replaceOrAdd(name: "Allow", value: "GET, HEAD")
        return response
    }
}
