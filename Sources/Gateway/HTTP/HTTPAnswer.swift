import Foundation
import LayoutJSON
public import NIOCore
public import NIOHTTP1
import Synchronization

/// One HTTP response as the gateway writes it (it writes its own bytes: a stream is a connection that goes on with
/// shared event buffers, so nothing per stream sits between it and the socket).
public struct HTTPAnswer: Sendable {
    public var status: HTTPResponseStatus { didSet { preparedHead = nil } }
    public var headers: [(String, String)] { didSet { preparedHead = nil } }
    /// nil: no body (204, 304).
    public var body: ByteBuffer? { didSet { preparedHead = nil } }
    /// The head as `writeHead(keepAlive: true)` writes it, made before (a record's, `RecordBodies`): written as it is
    /// to a connection kept open. Let go by any change to the answer.
    var preparedHead: ByteBuffer?

    public init(_ status: HTTPResponseStatus, headers: [(String, String)] = [], body: ByteBuffer? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Puts `body` in place of the answer's body, keeping the prepared head: for the bytes of the representation the
    /// head was written for (its `Content-Length`), or nil to keep the answer without them.
    mutating func replaceBody(keepingHead body: ByteBuffer?) {
        let head = preparedHead
        self.body = body
        preparedHead = head
    }

    /// Sets a header (replacing one of the same name).
    public mutating func set(_ name: String, _ value: String) {
        headers.removeAll { $0.0.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }

    /// The status line, headers and (unless `headOnly`) the body; `Content-Length` is the body's even for HEAD.
    public func bytes(headOnly: Bool, keepAlive: Bool) -> ByteBuffer {
        var out = ByteBuffer()
        writeHead(keepAlive: keepAlive, into: &out)
        if !headOnly, var body { out.writeBuffer(&body) }
        return out
    }

    /// The status line, headers and blank line, the body's `Content-Length` included, written into `out`: what goes
    /// before the body, which is written after it as it is (not copied in).
    public func writeHead(keepAlive: Bool, into out: inout ByteBuffer) {
        Self.writeHead(status, headers, into: &out, contentLength: body?.readableBytes, keepAlive: keepAlive)
    }

    /// The status line, `headers` with `date` and `server`, the body's length when it has one, `connection: close`
    /// unless kept alive, and (when `end`) the blank line. Every piece is measured first, then copied into the
    /// buffer in one step: a head is written per request, and a buffer write per piece cost its checks each time.
    static func writeHead(
        _ status: HTTPResponseStatus, _ headers: [(String, String)], into out: inout ByteBuffer,
        contentLength: Int? = nil, keepAlive: Bool = true, end: Bool = true
    ) {
        let parts = HeadParts(
            code: String(status.code), reason: status.reasonPhrase, headers: headers, date: HTTPDate.now,
            length: contentLength.map { String($0) }, close: !keepAlive, end: end)
        var measured = HeadBytes(into: nil)
        parts.write(&measured)
        out.writeWithUnsafeMutableBytes(minimumWritableBytes: measured.count) { raw in
            var line = HeadBytes(into: raw)
            parts.write(&line)
            return line.count
        }
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

/// What a response head is made of, in order.
private struct HeadParts {
    let code: String
    let reason: String
    let headers: [(String, String)]
    let date: String
    let length: String?
    let close: Bool
    let end: Bool

    func write(_ line: inout HeadBytes) {
        line.put("HTTP/1.1 ")
        line.put(code)
        line.put(" ")
        line.put(reason)
        line.put("\r\n")
        for (name, value) in headers {
            line.put(name)
            line.put(": ")
            line.put(value)
            line.put("\r\n")
        }
        line.put("date: ")
        line.put(date)
        line.put("\r\nserver: layout-gateway\r\n")
        if let length {
            line.put("content-length: ")
            line.put(length)
            line.put("\r\n")
        }
        if close { line.put("connection: close\r\n") }
        if end { line.put("\r\n") }
    }
}

/// The pieces of a response head copied into raw bytes one after another, or (with none) only counted.
private struct HeadBytes {
    private let raw: UnsafeMutableRawBufferPointer?
    private(set) var count = 0

    init(into raw: UnsafeMutableRawBufferPointer?) { self.raw = raw }

    mutating func put(_ piece: String) {
        var piece = piece
        piece.withUTF8 { bytes in
            if let raw { UnsafeMutableRawBufferPointer(rebasing: raw[count...]).copyMemory(from: .init(bytes)) }
            count += bytes.count
        }
    }
}

/// The `Date` header's value (RFC 9110 §5.6.7), made once per second.
enum HTTPDate {
    private static let cache = Mutex<(second: time_t, text: String)>((0, ""))

    static var now: String {
        let second = time(nil)
        return cache.withLock { c in
            if c.second != second {
                var t = second
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
