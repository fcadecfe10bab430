import Foundation
import Serve
import TestSupport
import Testing

@testable import ProcessTestSupport

/// Readiness as Kubernetes reads it: a member without partitions is ready; a worker that lost its brokers is not.
@Suite(.serialized) struct ReadinessTests {

    private func get(_ port: UInt16, _ path: String) -> (Int, String) {
        guard
            let (text, _) = try? RawHTTP.exchange(
                port: Int(port), parts: ["GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        else { return (0, "") }
        return (statusCode(text) ?? 0, text.components(separatedBy: "\r\n\r\n").dropFirst().joined())
    }

    @Test func anIdleMemberIsReadyAndALostClusterIsNot() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            let ports = [try TestBroker.freePort(), try TestBroker.freePort()]
            let workers = try ports.map { port in
                try WorkerProcess(
                    broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                    http: "127.0.0.1:\(port)")
            }
            // Both ready, though one partition can go to one member only.
            let ready = waitUntil(seconds: 40, every: 0.5) { ports.allSatisfy { get($0, "/readyz").0 == 200 } }
            #expect(
                ready,
                "\(ports.map { get($0, "/readyz") })\n\(workers[0].logText.suffix(1500))\n\(workers[1].logText.suffix(1500))"
            )
            let bodies = ports.map { get($0, "/readyz").1 }
            #expect(
                bodies.contains { $0.contains("0 partition(s) assigned") }
                    && bodies.contains { $0.contains("1 partition(s) assigned") }, "\(bodies)")
            // The broker goes away: neither is ready, and each says why.
            broker.stop()
            let lost = waitUntil(seconds: 30, every: 0.5) { ports.allSatisfy { get($0, "/readyz").0 == 503 } }
            #expect(lost, "\(ports.map { get($0, "/readyz") })")
            for port in ports {
                #expect(get(port, "/readyz").1.contains("brokers unreachable"), "\(get(port, "/readyz"))")
            }
            // Liveness is unaffected: the loops still turn.
            for port in ports { #expect(get(port, "/healthz").0 == 200) }
            // It comes back: ready again.
            try broker.restart()
            try broker.createTopics([input, output, dlq], partitions: 1)
            let back = waitUntil(seconds: 60, every: 0.5) { ports.allSatisfy { get($0, "/readyz").0 == 200 } }
            #expect(back, "\(ports.map { get($0, "/readyz") })")
            for w in workers { w.signal(SIGTERM) }
            for w in workers { #expect(w.wait(seconds: 30) == 0) }
            for w in workers { #expect(w.nonJSONLines.isEmpty, "\(w.nonJSONLines.prefix(3))") }
        }
    }

    /// A crash-loop breaker that cannot keep its state (here a directory that cannot be made) is visible: readiness
    /// still passes, with a warning in its body, and `layout_worker_crash_breaker_enabled` is 0; with a usable
    /// directory it is 1 and readiness says nothing of it.
    @Test func aCrashBreakerThatIsOffSaysSo() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            let usable = FileManager.default.temporaryDirectory.appendingPathComponent("breaker-\(UUID().uuidString)")
                .path
            for (dir, enabled) in [("/proc/layout-worker-cannot-be-made", false), (usable, true)] {
                let port = try TestBroker.freePort()
                let worker = try WorkerProcess(
                    broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                    extra: ["--crash-state-dir", dir], http: "127.0.0.1:\(port)")
                #expect(
                    waitUntil(seconds: 40, every: 0.5) { get(port, "/readyz").0 == 200 },
                    "\(worker.logText.suffix(2000))")
                let body = get(port, "/readyz").1
                let metrics = get(port, "/metrics").1
                #expect(body.contains("warning: the crash-loop breaker is off") == !enabled, "\(body)")
                #expect(
                    metrics.contains("layout_worker_crash_breaker_enabled \(enabled ? 1 : 0)"),
                    "\(metrics.prefix(3000))")
                worker.signal(SIGTERM)
                #expect(worker.wait(seconds: 30) == 0)
            }
        }
    }
}
