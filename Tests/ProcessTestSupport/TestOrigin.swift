import Foundation
import TestSupport

/// `scripts/test-origin.py` on a free loopback port: recorded assembler responses under their navigation states,
/// faults switched on and off (`set`), and a count of the requests it was sent.
final class TestOrigin {
    let process: Process
    private(set) var port = 0

    /// `states`: navigation state → file (relative to the repository); `prefixes`: path prefix → the file for states
    /// under it; `any`: the file for every other state.
    init(states: [String: String] = [:], prefixes: [String: String] = [:], any: String? = nil, latencyMs: Int = 0)
        throws
    {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", Fixtures.path("scripts/test-origin.py"), "--port", "0"]
        for (state, file) in states { arguments += ["--state", "\(state)=\(Fixtures.path(file))"] }
        for (prefix, file) in prefixes { arguments += ["--prefix", "\(prefix)=\(Fixtures.path(file))"] }
        if let any { arguments += ["--any", Fixtures.path(any)] }
        if latencyMs > 0 { arguments += ["--latency-ms", String(latencyMs)] }
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard let m = line.firstMatch(of: /listening ([0-9]+)/), let p = Int(m.output.1) else {
            throw OriginNotStarted(said: line)
        }
        port = p
    }

    struct OriginNotStarted: Error, CustomStringConvertible {
        let said: String
        var description: String { "test-origin.py did not say where it listens; it said: \(said)" }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The base URL `gateway --origin` takes.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Requests for states it was sent so far, and per state.
    func requests() throws -> (total: Int, paths: [String: Int]) {
        let got = try RawHTTP.get(port, "/_count")
        let object = try JSONSerialization.jsonObject(with: Data(got.body)) as? [String: Any] ?? [:]
        return (object["requests"] as? Int ?? -1, object["paths"] as? [String: Int] ?? [:])
    }

    /// Switches faults on (`[:]` clears them): latency_ms, status, reset, slow_body_ms, oversize_bytes, no_length,
    /// body.
    func set(_ faults: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: faults)
        _ = try RawHTTP.get(port, "/_control", method: "POST", body: Array(body))
    }
}
