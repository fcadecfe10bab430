import Foundation
public import Prometheus
import Synchronization

/// A small HTTP/1.1 listener for operations: `/metrics` (Prometheus text), `/healthz`, `/readyz`.
public final class OpsServer: Sendable {
    private let host: String
    private let port: UInt16
    private let registry: PrometheusCollectorRegistry
    private let status: WorkerStatus
    private let socketFD = Atomic<Int32>(-1)
    private let stopped = Atomic<Bool>(false)

    /// A listener on `host:port` (port 0 picks a free one; see `boundPort`).
    public init(host: String, port: UInt16, registry: PrometheusCollectorRegistry, status: WorkerStatus) {
        self.host = host
        self.port = port
        self.registry = registry
        self.status = status
    }

    /// Binds and starts serving on a background thread; returns the bound port.
    @discardableResult
    public func start() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw OpsServerError(message: "socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else {
            close(fd)
            throw OpsServerError(message: "not an IPv4 address: \(host)")
        }
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 16) == 0 else {
            let e = errno
            close(fd)
            throw OpsServerError(message: "cannot listen on \(host):\(port): errno \(e)")
        }
        socketFD.store(fd, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in self.serve(fd) }
        thread.name = "ops-http"
        thread.start()
        return boundPort
    }

    /// The port actually bound.
    public var boundPort: UInt16 {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD.load(ordering: .relaxed), $0, &len) } }
        return UInt16(bigEndian: addr.sin_port)
    }

    /// Stops accepting connections.
    public func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        let fd = socketFD.exchange(-1, ordering: .sequentiallyConsistent)
        if fd >= 0 {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    private func serve(_ fd: Int32) {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if stopped.load(ordering: .relaxed) { return }
                continue
            }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            respond(client)
            close(client)
        }
    }

    private func respond(_ client: Int32) {
        var request = [UInt8](repeating: 0, count: 4096)
        let n = read(client, &request, request.count)
        guard n > 0 else { return }
        let line = String(decoding: request[0..<n].prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        let (code, body): (String, [UInt8])
        switch (parts.first.map(String.init), path) {
        case ("GET", "/metrics"): (code, body) = ("200 OK", registry.emitToBuffer())
        case ("GET", "/healthz"): (code, body) = ("200 OK", Array("ok\n".utf8))
        case ("GET", "/readyz"):
            if let blocked = status.outputBlocked {
                (code, body) = ("503 Service Unavailable", Array("not ready: output blocked: \(blocked)\n".utf8))
            } else {
                (code, body) = status.isReady ? ("200 OK", Array("ready\n".utf8)) : ("503 Service Unavailable", Array("not ready\n".utf8))
            }
        default: (code, body) = ("404 Not Found", Array("not found\n".utf8))
        }
        let type = path == "/metrics" ? "text/plain; version=0.0.4" : "text/plain"
        let head = "HTTP/1.1 \(code)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let out = Array(head.utf8) + body
        var sent = 0
        while sent < out.count {
            let w = out[sent...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if w <= 0 { return }
            sent += w
        }
    }
}

/// The ops listener could not start.
public struct OpsServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
