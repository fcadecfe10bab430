import Foundation
import LayoutJSON
public import NIOCore
public import NIOHTTP1
import Synchronization

/// One HTTP response as the gateway writes it (it writes its own bytes: a stream is a connection that goes on with
/// shared event buffers, so nothing per stream sits between it and the socket).
public struct HTTPAnswer: Sendable {
    public var status: HTTPResponseStatus
    public var headers: [(String, String)]
    /// nil: no body (204, 304).
    public var body: ByteBuffer?

    public init(_ status: HTTPResponseStatus, headers: [(String, String)] = [], body: ByteBuffer? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Sets a header (replacing one of the same name).
    public mutating func set(_ name: String, _ value: String) {
        headers.removeAll { $0.0.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }

    /// The status line, headers and (unless `headOnly`) the body; `Content-Length` is the body's even for HEAD.
    public func bytes(headOnly: Bool, keepAlive: Bool) -> ByteBuffer {
        var out = ByteBuffer()
        out.reserveCapacity(256 + (headOnly ? 0 : body?.readableBytes ?? 0))
        Self.writeHead(status, headers, into: &out)
        if let body { out.writeString("content-length: \(body.readableBytes)\r\n") }
        if !keepAlive { out.writeString("connection: close\r\n") }
        out.writeString("\r\n")
        if !headOnly, var body { out.writeBuffer(&body) }
        return out
    }

    /// The status line and `headers` with `date` and `server`, without the blank line.
    static func writeHead(_ status: HTTPResponseStatus, _ headers: [(String, String)], into out: inout ByteBuffer) {
        out.writeString("HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n")
        for (name, value) in headers { out.writeString("\(name): \(value)\r\n") }
        out.writeString("date: \(HTTPDate.now)\r\nserver: layout-gateway\r\n")
    }

    /// A plain-text answer that is not cached.
    public static func text(_ status: HTTPResponseStatus, _ text: String) -> HTTPAnswer {
        HTTPAnswer(
            status, headers: [("content-type", "text/plain; charset=utf-8"), ("cache-control", "no-store")],
            body: ByteBuffer(string: text))
    }

    /// A JSON error: `{"error": code, "message": ..., "key": ..., "offset": ...}`, not cached.
    public static func error(
        _ status: HTTPResponseStatus, _ code: String, _ message: String, key: String? = nil, offset: Int? = nil
    ) -> HTTPAnswer {
        var w = JSONWriter()
        w.beginObject()
        w.key("error"); w.string(code)
        w.key("message"); w.string(message)
        if let key { w.key("key"); w.string(key) }
        if let offset { w.key("offset"); w.int(offset) }
        w.endObject()
        return HTTPAnswer(
            status, headers: [("content-type", "application/json"), ("cache-control", "no-store")],
            body: ByteBuffer(bytes: w.bytes + [0x0A]))
    }
}

/// The `Date` header's value (RFC 9110 §5.6.7), made once per second.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((0, ""))

    static var now: String {
        let second = Int(Date().timeIntervalSince1970)
        return cache.withLock { c in
            if c.second != second {
                var t = time_t(second)
                var parts = tm()
                gmtime_r(&t, &parts)
                var buffer = [CChar](repeating: 0, count: 64)
                let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
                c = (second, String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            return c.text
        }
    }
}
