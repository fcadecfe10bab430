import Foundation
import TestSupport

/// A `layout-worker gateway` process on free ports (it prints the ports it bound): the API's and the ops'.
final class GatewayProcess {
    let process: Process
    let log: URL
    private(set) var port = 0
    private(set) var opsPort = 0

    /// The page store's directory (one of its own in the broker's work directory unless given).
    let pageStoreDirectory: String

    init(
        broker: TestBroker, changes: String, state: String, listenPort: Int = 0, opsPort listenOps: Int = 0,
        pageStoreDirectory: String? = nil, extra: [String] = [], environment: [String: String]? = nil,
        launcher: [String] = []
    ) throws {
        self.pageStoreDirectory =
            pageStoreDirectory ?? broker.workDirectory.appendingPathComponent("gateway-state-\(UUID().uuidString)").path
        process = layoutWorkerProcess(
            [
                "gateway", "--brokers", broker.address, "--changes-topic", changes, "--latest-layout-topic", state,
                "--port", String(listenPort), "--http", "127.0.0.1:\(listenOps)", "--log-format", "json",
                "--page-store", self.pageStoreDirectory,
            ] + extra)
        if !launcher.isEmpty, let binary = process.executableURL?.path {
            // e.g. a shell that lowers the descriptor limit first: `sh -c 'ulimit -n 256; exec "$0" "$@"'`.
            process.arguments = Array(launcher.dropFirst()) + [binary] + (process.arguments ?? [])
            process.executableURL = URL(fileURLWithPath: launcher[0])
        }
        if let environment { process.environment = environment }
        log = broker.workDirectory.appendingPathComponent("gateway-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // "gateway: http://127.0.0.1:PORT/v1/layouts/{key} ...", "gateway ops: http://127.0.0.1:PORT/readyz ...",
        // "gateway limits: ..."
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        // The limits line comes last, after both addresses: wait for all of it.
        while text.firstMatch(of: /gateway limits: [^\n]*\n/) == nil && Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let m = text.firstMatch(of: /gateway: http:\/\/127\.0\.0\.1:([0-9]+)\//) { port = Int(m.output.1) ?? 0 }
            if let m = text.firstMatch(of: /gateway ops: http:\/\/127\.0\.0\.1:([0-9]+)\//) {
                opsPort = Int(m.output.1) ?? 0
            }
        }
        output = text
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }

    /// Waits (30 s at most) until `/readyz` answers 200; fails naming what it last said and the log.
    func waitUntilReady() throws {
        let ops = opsPort
        guard port > 0, ops > 0 else { throw NotReady(said: "no ports printed", log: logText) }
        var said = ""
        let ready = try waitUntil(seconds: 30, every: 0.1) {
            let got = try RawHTTP.get(ops, "/readyz")
            said = String(decoding: got.body, as: UTF8.self)
            return got.status == 200
        }
        if !ready { throw NotReady(said: said, log: logText) }
    }

    struct NotReady: Error, CustomStringConvertible {
        let said: String, log: String
        var description: String { "the gateway was not ready within 30 s; /readyz: \(said)\n\(log.suffix(3000))" }
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    /// What it printed before listening (its addresses and limits).
    private(set) var output = ""
}
