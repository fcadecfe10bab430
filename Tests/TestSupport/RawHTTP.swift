import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain HTTP/1.1 client over a loopback socket, for what URLSession on Linux does not give a test: the raw
/// headers, and a server-sent event stream read as it arrives.
public final class RawHTTP {
    private let fd: Int32
    public private(set) var received: [UInt8] = []
    /// Whether the peer closed the connection (a read found its end).
    public private(set) var closed = false

    /// A connection to `host` (an IPv4 or IPv6 literal).
    public init(host: String = "127.0.0.1", port: Int) throws {
        fd = try Self.connect(host: host, port: port)
    }

    private static func connect(host: String, port: Int) throws -> Int32 {
        let v6 = host.contains(":")
        let fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var connected = false
        if v6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &addr.sin6_addr)
            connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
                }
            }
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            addr.sin_addr.s_addr = inet_addr(host)
            connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }
        guard connected else {
            close(fd)
            throw RawHTTPError(description: "cannot connect to \(v6 ? "[\(host)]" : host):\(port)")
        }
        return fd
    }

    deinit { close(fd) }

    /// Drops the connection (as a phone losing its network would).
    public func disconnect() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Sends a request: `GET path` with these headers (and a body, with its `Content-Length`).
    public func request(
        _ path: String, method: String = "GET", headers: [String: String] = [:], body: [UInt8]? = nil
    ) {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (k, v) in headers { text += "\(k): \(v)\r\n" }
        if let body { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        let bytes = Array(text.utf8) + (body ?? [])
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends bytes as they are (e.g. half a request).
    public func sendRaw(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `done` holds for what arrived, the peer closes, or `timeout` seconds pass; true if `done` held.
    @discardableResult
    public func read(timeout: Double, until done: ([UInt8]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !done(received) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(min(left, 0.2) * 1000)) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 {
                closed = true
                return done(received)
            }
            received += buffer[0..<n]
        }
        return true
    }

    /// A whole response (the connection closes after it): status, headers (lower-cased names), body.
    public func response(timeout: Double = 10) -> (status: Int, headers: [String: String], body: [UInt8]) {
        // Until the peer closes, or the body has its Content-Length (a proxy may keep the connection open).
        read(timeout: timeout) { r in
            guard let end = r.firstRange(of: Array("\r\n\r\n".utf8)) else { return false }
            let head = String(decoding: r[..<end.lowerBound], as: UTF8.self).lowercased()
            guard let m = head.firstMatch(of: /content-length: *([0-9]+)/), let n = Int(m.output.1) else {
                return false
            }
            return r.count - end.upperBound >= n
        }
        guard let end = received.firstRange(of: Array("\r\n\r\n".utf8)) else { return (0, [:], []) }
        let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let body = Array(received[end.upperBound...])
        return (status, headers, headers["transfer-encoding"] == "chunked" ? Self.dechunk(body) : body)
    }

    /// A chunked body's data.
    public static func dechunk(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while let lineEnd = body[i...].firstRange(of: [0x0D, 0x0A]) {
            guard let size = Int(String(decoding: body[i..<lineEnd.lowerBound], as: UTF8.self), radix: 16), size > 0,
                lineEnd.upperBound + size <= body.count
            else { break }
            out += body[lineEnd.upperBound..<lineEnd.upperBound + size]
            i = lineEnd.upperBound + size + 2
            guard i < body.count else { break }
        }
        return out
    }

    /// The server-sent events received so far: (event, id, data).
    public var events: [(event: String, id: String, data: String)] {
        // A chunked stream is read as its data (a proxy may cut an event across chunks).
        var bytes = received
        if let end = received.firstRange(of: Array("\r\n\r\n".utf8)),
            String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased().contains(
                "transfer-encoding: chunked")
        {
            bytes = Self.dechunk(Array(received[end.upperBound...]))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.matches(of: /event: ([a-z-]+)\nid: ([0-9a-f@]+)\ndata: ([^\n]*)\n\n/).map {
            (String($0.output.1), String($0.output.2), String($0.output.3))
        }
    }

    /// One exchange as the bytes go: sends `parts` (0.2 s apart, when there are several), reads until the peer
    /// closes or `timeout` passes, and returns what was read and how long it took.
    public static func exchange(host: String = "127.0.0.1", port: Int, parts: [String], timeout: Double = 2) throws
        -> (text: String, seconds: Double)
    {
        let start = Date()
        let c = try RawHTTP(host: host, port: port)
        for (i, part) in parts.enumerated() {
            if i > 0 { Thread.sleep(forTimeInterval: 0.2) }
            c.sendRaw(part)
        }
        c.read(timeout: timeout - Date().timeIntervalSince(start)) { _ in false }
        return (String(decoding: c.received, as: UTF8.self), Date().timeIntervalSince(start))
    }

    /// One GET, start to end.
    public static func get(
        _ port: Int, _ path: String, headers: [String: String] = [:], method: String = "GET", body: [UInt8]? = nil
    ) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        let c = try RawHTTP(port: port)
        c.request(path, method: method, headers: headers, body: body)
        return c.response()
    }
}

/// A connection `RawHTTP` could not open.
public struct RawHTTPError: Error, CustomStringConvertible {
    public let description: String
}
