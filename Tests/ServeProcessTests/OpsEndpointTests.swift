import Foundation
import Ops
import Serve
import TestSupport
import Testing

@testable import ProcessTestSupport

/// The ops endpoints of a worker whose brokers cannot be reached: nothing about them needs a broker.
@Suite(.serialized) struct OpsEndpointTests {
    /// A `serve` pointed at a closed port, with the ops endpoints on a free port; returns the process and its port.
    private func worker(http: String = "127.0.0.1:0", extra: [String] = []) throws -> (Process, URL, Int) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let log = dir.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = layoutWorkerProcess(
            [
                "serve", "--brokers", "127.0.0.1:1", "--input", "in", "--output", "out", "--http", http,
                "--config", Fixtures.path("config/default.yaml"), "--log-format", "json", "--crash-state-dir", "off",
            ] + extra)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        var port = 0
        waitUntil(seconds: 20, every: 0.05) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard
                let line = text.split(separator: "\n").first(where: { $0.contains("ops endpoints listening") }),
                let colon = line.range(of: #":(\d+)""#, options: .regularExpression)
            else { return false }
            port = Int(line[colon].dropFirst().dropLast()) ?? 0
            return port > 0
        }
        return (process, log, port)
    }

    private func stop(_ process: Process) {
        process.terminate()
        process.waitUntilExit()
    }

    @Test func healthzAnswersWithinASecondBehindFiftyIdleConnections() async throws {
        try await offThePool {
            let (process, log, port) = try worker()
            defer { stop(process) }
            #expect(port > 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            // 50 connections that send nothing, and one that sends half a request and stalls.
            var idle = try (0..<50).map { _ in try RawHTTP(port: port) }
            let slow = try RawHTTP(port: port)
            slow.sendRaw("GET /metrics HTTP/1.1\r\nHost: x\r\n")
            idle.append(slow)
            defer { withExtendedLifetime(idle) {} }
            Thread.sleep(forTimeInterval: 0.5)
            for _ in 0..<5 {
                let (text, seconds) = try RawHTTP.exchange(
                    port: port, parts: ["GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], timeout: 1)
                #expect(statusCode(text) == 200, "\(text)")
                #expect(seconds < 1, "took \(seconds) s")
            }
        }
    }

    @Test func methodsQueriesSplitRequestsAndPipelining() async throws {
        try await offThePool {
            let (process, _, port) = try worker()
            defer { stop(process) }
            // HEAD: the headers of GET (with its length), no body.
            let head = try RawHTTP.exchange(
                port: port, parts: ["HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]
            )
            .text
            #expect(statusCode(head) == 200)
            #expect(head.lowercased().contains("content-length: "), "\(head)")
            #expect(head.hasSuffix("\r\n\r\n"), "a HEAD answer has no body: \(head)")
            // A query string is ignored.
            let query = try RawHTTP.exchange(
                port: port, parts: ["GET /metrics?x=1&y HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]
            ).text
            #expect(statusCode(query) == 200 && query.contains("# TYPE layout_worker_consumed_total counter"))
            // Other methods: 405 with Allow; unknown paths: 404.
            let post = try RawHTTP.exchange(
                port: port,
                parts: ["POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"]
            ).text
            #expect(statusCode(post) == 405 && post.contains("Allow: GET, HEAD"), "\(post)")
            #expect(
                statusCode(
                    try RawHTTP.exchange(
                        port: port, parts: ["GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]
                    ).text)
                    == 404)
            // A request split over two writes.
            let split = try RawHTTP.exchange(
                port: port, parts: ["GET /heal", "thz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]
            ).text
            #expect(statusCode(split) == 200, "\(split)")
            // Keep-alive and pipelining: two requests in one write, two answers on one connection.
            let pipelined = try RawHTTP.exchange(
                port: port,
                parts: [
                    "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                ]
            ).text
            #expect(pipelined.components(separatedBy: "HTTP/1.1 ").count - 1 == 2, "\(pipelined)")
            #expect(pipelined.contains("HTTP/1.1 200") && pipelined.contains("HTTP/1.1 503"))
        }
    }

    @Test func readinessSaysTheBrokersAreUnreachableAndEveryLogLineIsJSON() async throws {
        try await offThePool {
            let (process, log, port) = try worker()
            defer { stop(process) }
            var text = ""
            waitUntil(seconds: 15) {
                text =
                    (try? RawHTTP.exchange(
                        port: port, parts: ["GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]
                    ).text)
                    ?? ""
                return text.contains("brokers unreachable")
            }
            #expect(statusCode(text) == 503 && text.contains("not ready: brokers unreachable: "), "\(text)")
            #expect(text.contains("Connection refused") || text.contains("no broker connection is up"), "\(text)")
            // The worker says so itself, with librdkafka's reason.
            waitUntil(seconds: 10) {
                ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("cannot reach the brokers")
            }
            stop(process)
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            let entries = lines.compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            #expect(
                entries.count == lines.count,
                "not JSON: \(lines.filter { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) == nil })")
            #expect(
                entries.contains {
                    $0["logger"] as? String == "librdkafka"
                        && ($0["message"] as? String ?? "").contains("Connection refused")
                })
            #expect(entries.contains { $0["message"] as? String == "cannot reach the brokers" && $0["reason"] != nil })
            for e in entries {
                let time = e["time"] as? String ?? ""
                #expect(
                    time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil,
                    "\(e)"
                )
                #expect(e["level"] is String && e["logger"] is String && e["message"] is String)
                #expect(!(e["message"] as? String ?? "").contains("@-1001"))
            }
        }
    }

    @Test func metricsParseWithHelpForEveryFamily() async throws {
        try await offThePool {
            let (process, _, port) = try worker()
            defer { stop(process) }
            // Wait for the first librdkafka statistics (5 s interval) so their families are present too.
            var families: [String: [String: Any]] = [:]
            waitUntil(seconds: 15, every: 0.5) {
                guard
                    let text = try? RawHTTP.exchange(
                        port: port, parts: ["GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]
                    ).text,
                    let body = text.components(separatedBy: "\r\n\r\n").dropFirst().first
                else { return false }
                families = (try? parseMetrics(body)) ?? [:]
                return families["layout_worker_kafka_reply_queue"] != nil
            }
            #expect(!families.isEmpty)
            for (name, family) in families {
                #expect(family["help"] as? Bool == true, "no HELP for \(name)")
                // prometheus_client names counters without _total; the catalog names them with it.
                let catalogued = MetricCatalog.family(named: name) ?? MetricCatalog.family(named: name + "_total")
                #expect(catalogued != nil, "\(name) is not in MetricCatalog")
                #expect(catalogued.map { $0.kind.rawValue } == family["type"] as? String, "\(name): \(family)")
            }
            for required in [
                "layout_worker_build_info", "process_resident_memory_bytes", "process_cpu_seconds", "process_open_fds",
                "layout_worker_in_flight", "layout_worker_ready", "layout_worker_commits",
            ] {
                #expect(families[required] != nil, "missing \(required)")
            }
            #expect(families["layout_worker_ready"]?["sum"] as? Double == 0)
            #expect(families["layout_worker_in_flight"]?["sum"] as? Double == 0)
        }
    }

    @Test func ipv6AndHostNamesInHTTP() async throws {
        try await offThePool {
            let hasIPv6 = ((try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8)) ?? "").contains(
                "00000000000000000000000000000001")
            if hasIPv6 {
                let (process, _, port) = try worker(http: "[::1]:0")
                defer { stop(process) }
                #expect(port > 0)
                #expect(
                    statusCode(
                        try RawHTTP.exchange(
                            host: "::1", port: port,
                            parts: ["GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]
                        ).text) == 200)
            }
            let (process, _, port) = try worker(http: "localhost:0")
            defer { stop(process) }
            #expect(port > 0)
        }
    }

    /// A SIGTERM while clients keep connecting ends the process cleanly: a connection accepted as the listener
    /// closes was dropped wrapped and unfinished, which ended the process with NIOAsyncWriter's precondition (1 run
    /// in 10 of a worker scraped by 4 clients at its shutdown).
    @Test func aShutdownWhileConnectionsArriveEndsCleanly() async throws {
        try await offThePool {
            for round in 0..<8 {
                let (process, log, port) = try worker()
                #expect(port > 0, "round \(round): the ops port was not logged")
                guard port > 0 else { return }
                let scraping = Scraping()
                let threads = (0..<4).map { _ in
                    Thread {
                        while scraping.on {
                            if (try? RawHTTP.get(port, "/metrics")) != nil { scraping.answered() }
                        }
                    }
                }
                threads.forEach { $0.start() }
                let scraped = waitUntil(seconds: 20, every: 0.01) { scraping.answers >= 20 }
                process.terminate()
                process.waitUntilExit()
                scraping.stop()
                let said = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(1500)
                #expect(scraped, "round \(round): \(scraping.answers) answers before the SIGTERM")
                #expect(
                    process.terminationReason == .exit && process.terminationStatus == 0,
                    "round \(round): ended by \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus): \(said)"
                )
            }
        }
    }
}

/// Whether the scraping threads go on, and how many answers they had.
private final class Scraping: @unchecked Sendable {
    private let lock = NSLock()
    private var going = true, count = 0
    var on: Bool { lock.withLock { going } }
    var answers: Int { lock.withLock { count } }
    func answered() { lock.withLock { count += 1 } }
    func stop() { lock.withLock { going = false } }
}
