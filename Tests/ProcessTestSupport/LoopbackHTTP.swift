import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP exchange over a raw socket: sends `request` (in parts, with a pause between them, when given several)
/// and reads until the peer closes or `timeout` passes. Returns what was read and how long it took.
func rawHTTP(host: String = "127.0.0.1", port: Int, parts: [String], timeout: Double = 2) throws -> (
    text: String, seconds: Double
) {
    let fd = try connectTCP(host: host, port: port)
    defer { close(fd) }
    var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    let start = Date()
    for (i, part) in parts.enumerated() {
        if i > 0 { Thread.sleep(forTimeInterval: 0.2) }
        _ = Array(part.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while Date().timeIntervalSince(start) < timeout {
        let n = read(fd, &buffer, buffer.count)
        if n <= 0 { break }
        response += buffer[0..<n]
    }
    return (String(decoding: response, as: UTF8.self), Date().timeIntervalSince(start))
}

/// A connected TCP socket to `host` (an IPv4 or IPv6 literal).
func connectTCP(host: String, port: Int) throws -> Int32 {
    if host.contains(":") {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in6()
        addr.sin6_family = sa_family_t(AF_INET6)
        addr.sin6_port = UInt16(port).bigEndian
        inet_pton(AF_INET6, host, &addr.sin6_addr)
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
        guard ok else { close(fd); throw TestBrokerError("cannot connect to [\(host)]:\(port)") }
        return fd
    }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = UInt16(port).bigEndian
    addr.sin_addr.s_addr = inet_addr(host)
    let ok = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
    guard ok else { close(fd); throw TestBrokerError("cannot connect to \(host):\(port)") }
    return fd
}

/// The status code of an HTTP response text.
func statusCode(_ response: String) -> Int? {
    response.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
}

/// Parses a `/metrics` body with prometheus_client (`scripts/check-metrics.py`): family → (type, has help, sum).
func parseMetrics(_ text: String) throws -> [String: [String: Any]] {
    let (data, status) = try piped(
        Data(text.utf8), through: Fixtures.path(".deps/venv/bin/python"), [Fixtures.path("scripts/check-metrics.py")])
    guard status == 0,
        let parsed = try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
    else {
        throw TestBrokerError("prometheus_client could not parse /metrics: \(String(decoding: data, as: UTF8.self))")
    }
    return parsed
}

/// A blocking HTTP GET on loopback (body, status).
func syncGet(_ url: URL) throws -> (Data, Int) {
    let text = try rawHTTP(
        port: url.port!, parts: ["GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"],
        timeout: 10
    ).text
    guard let status = statusCode(text) else { throw TestBrokerError("no HTTP response from \(url)") }
    guard let split = text.range(of: "\r\n\r\n") else { return (Data(), status) }
    return (Data(text[split.upperBound...].utf8), status)
}
