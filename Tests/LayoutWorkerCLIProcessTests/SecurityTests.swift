import Foundation
import Kafka
import TestSupport
import Testing

@testable import ProcessTestSupport

/// Runs a command to completion; throws with its output when it fails.
@discardableResult
private func run(_ tool: String, _ args: [String], in dir: URL) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [tool] + args
    p.currentDirectoryURL = dir
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard p.terminationStatus == 0 else {
        throw TestBrokerError("\(tool) \(args.joined(separator: " ")) failed: \(text)")
    }
    return text
}

/// A test CA and a server certificate for 127.0.0.1 signed by it, plus an unrelated CA.
private struct TestCertificates {
    let dir: URL
    var ca: String { dir.appendingPathComponent("ca.pem").path }
    var otherCA: String { dir.appendingPathComponent("other-ca.pem").path }
    var cert: String { dir.appendingPathComponent("server.pem").path }
    var key: String { dir.appendingPathComponent("server.key").path }

    init(in dir: URL) throws {
        self.dir = dir
        for name in ["ca", "other-ca"] {
            try run(
                "openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(name).key", "-out", "\(name).pem",
                    "-days", "2", "-subj", "/CN=layout-worker test \(name)",
                ], in: dir)
        }
        try run(
            "openssl",
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj",
                "/CN=127.0.0.1",
            ], in: dir)
        try "subjectAltName=IP:127.0.0.1\n".write(
            to: dir.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
        try run(
            "openssl",
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", "san.ext",
            ], in: dir)
    }
}

/// The TLS proxy (scripts/tls-proxy.py) in front of a broker port.
private final class TLSProxy {
    let process = Process()
    let port: UInt16

    init(certificates c: TestCertificates, upstream: UInt16) throws {
        process.executableURL = URL(fileURLWithPath: Fixtures.path(".deps/venv/bin/python"))
        process.arguments = [Fixtures.path("scripts/tls-proxy.py"), c.cert, c.key, String(upstream)]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { throw TestBrokerError("tls proxy exited before listening") }
            line.append(chunk)
        }
        guard let p = UInt16(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw TestBrokerError("tls proxy printed no port")
        }
        port = p
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

@Suite(.serialized) struct SecurityTests {
    /// The worker talks TLS (CA verification and host name check on) to a TLS listener on loopback in front of the broker.
    @Test func tlsWithCAVerificationAndAWrongCAIsRefused() async throws {
        try await offThePool {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lw-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let certs = try TestCertificates(in: dir)
            let brokerPort = try TestBroker.freePort()
            let proxy = try TLSProxy(certificates: certs, upstream: brokerPort)
            let tls = ["security.protocol": "ssl", "ssl.ca.location": certs.ca]
            // The broker names the proxy as its address, so every connection (bootstrap and after metadata) is TLS.
            let broker = try TestBroker(advertisedPort: proxy.port, listenPort: brokerPort, clientProperties: tls)
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            try broker.produce(input, [("a", emptyResultsList("over-tls")), ("b", Array("not json".utf8))])
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: [
                    "--stop-after", "2", "--kafka-property", "security.protocol=ssl",
                    "--kafka-property", "ssl.ca.location=\(certs.ca)",
                ])
            #expect(worker.wait(seconds: 60) == 0, "\(worker.logText.suffix(3000))")
            #expect(try broker.consume(output, partitions: 1, count: 1).count == 1)
            #expect(try broker.consume(dlq, partitions: 1, count: 1).count == 1)

            // The same worker trusting another CA is refused, says why, and still stops cleanly.
            let port = try TestBroker.freePort()
            let refused = try WorkerProcess(
                broker: broker, input: input, output: uniqueName("out"), deadLetter: dlq, group: uniqueName("g"),
                extra: [
                    "--kafka-property", "security.protocol=ssl", "--kafka-property", "ssl.ca.location=\(certs.otherCA)",
                ],
                http: "127.0.0.1:\(port)")
            #expect(refused.waitForLog("certificate verify failed", seconds: 30), "\(refused.logText.suffix(3000))")
            let (_, ready) = try syncGet(URL(string: "http://127.0.0.1:\(port)/readyz")!)
            #expect(ready != 200)
            refused.signal(SIGTERM)
            #expect(
                refused.wait(seconds: 30) == 0,
                "\(refused.process.terminationReason == .uncaughtSignal ? "killed by signal" : "exit status") \(refused.process.isRunning ? -1 : refused.process.terminationStatus)\n\(refused.logText.suffix(3000))"
            )
            _ = proxy
        }
    }

    /// SASL settings pass through to librdkafka (the test broker cannot authenticate anyone, so the handshake fails),
    /// and the password appears nowhere: not in logs, errors or /metrics.
    @Test func saslSettingsReachLibrdkafkaAndSecretsStayHidden() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            let secret = "pw-\(UUID().uuidString)"
            let port = try TestBroker.freePort()
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: [
                    "--kafka-property", "security.protocol=sasl_plaintext",
                    "--kafka-property", "sasl.mechanism=SCRAM-SHA-256",
                    "--kafka-property", "sasl.username=layout-worker",
                    "--kafka-property", "sasl.password=\(secret)", "--log-level", "debug",
                ],
                http: "127.0.0.1:\(port)")
            // librdkafka attempted SCRAM with these settings and the broker refused the login.
            #expect(worker.waitForLog("SASL SCRAM-SHA-256", seconds: 30), "\(worker.logText.suffix(3000))")
            #expect(worker.waitForLog("ops endpoints listening", seconds: 10))
            let (metrics, code) = try syncGet(URL(string: "http://127.0.0.1:\(port)/metrics")!)
            #expect(code == 200)
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 30) == 0)
            let log = worker.logText
            #expect(log.contains("sasl.password=[redacted]"))
            #expect(!log.contains(secret), "the SASL password leaked into the log")
            #expect(!String(decoding: metrics, as: UTF8.self).contains(secret))
        }
    }
}
