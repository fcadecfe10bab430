import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

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
    let text = try RawHTTP.exchange(
        port: url.port!, parts: ["GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"],
        timeout: 10
    ).text
    guard let status = statusCode(text) else { throw TestBrokerError("no HTTP response from \(url)") }
    guard let split = text.range(of: "\r\n\r\n") else { return (Data(), status) }
    return (Data(text[split.upperBound...].utf8), status)
}
