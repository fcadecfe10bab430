public import Hummingbird

/// What every HTTP endpoint of the project (ops probes, the preview) answers alike: plain-text responses that are
/// not cached, and the one rule that they are read-only.
public enum PlainResponse {
    /// A plain-text response that is not cached.
    public static func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentLength] = String(body.utf8.count)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The 405 for any method but GET and HEAD, or nil when `request` may go on.
    public static func refusingWrites(_ request: Request) -> Response? {
        guard request.method != .get && request.method != .head else { return nil }
        var response = text(.methodNotAllowed, "method not allowed: use GET or HEAD\n")
        response.headers[.allow] = "GET, HEAD"
        return response
    }
}
