public import NIOCore

/// A page compiled into the binary (its files' names and texts, from `clients/web` by the EmbedPreviewPage plugin),
/// served as it is: `/` is `index.html`; the page loads nothing but its own files (pictures may come from anywhere).
public struct EmbeddedPage: Sendable {
    let files: [String: (type: String, body: ByteBuffer)]

    public init(files: [(name: String, text: String)]) {
        var byPath: [String: (type: String, body: ByteBuffer)] = [:]
        for file in files { byPath["/" + file.name] = (Self.contentType(of: file.name), ByteBuffer(string: file.text)) }
        byPath["/"] = byPath["/index.html"]
        self.files = byPath
    }

    /// What the page may load: nothing but its own files (pictures from anywhere).
    public static let securityPolicy =
        "default-src 'self'; img-src * data:; style-src 'self'; script-src 'self'; connect-src 'self'"

    /// The file at `path`: its content type and body.
    public func file(at path: String) -> (type: String, body: ByteBuffer)? { files[path] }

    /// The file at the request's path (GET or HEAD), or nil when the page has none.
    public func response(for request: PlainRequest) -> PlainResponse? {
        guard let file = files[request.path] else { return nil }
        return PlainResponse(
            status: .ok,
            headers: [
                "Content-Type": file.type, "Cache-Control": "no-cache", "Content-Security-Policy": Self.securityPolicy,
            ],
            body: .bytes(file.body))
    }

    static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        return "application/octet-stream"
    }
}
