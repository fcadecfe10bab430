import Foundation
import TestSupport
import Testing

@testable import ProcessTestSupport

/// A proxy (Debian's nginx or Varnish, installed by `make deps`) on loopback ports of its own, in a directory of its
/// own, stopped by PID.
final class ProxyProcess {
    let process = Process()
    let directory: URL
    let ports: [Int]
    /// What stops it: nginx stops on SIGTERM, varnishd (in the foreground) on SIGINT.
    private var stopSignal = SIGTERM

    /// nginx with `http` (the body of its `http { }` block, `PORTn` standing for the n-th listening port).
    init(nginx http: String, ports count: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        ports = try (0..<count).map { _ in Int(try TestBroker.freePort()) }
        let d = directory.path
        var body = http
        for (n, port) in ports.enumerated() { body = body.replacingOccurrences(of: "PORT\(n)", with: String(port)) }
        let conf = """
            pid \(d)/nginx.pid;
            error_log \(d)/error.log warn;
            events { worker_connections 4096; }
            http {
              access_log off;
              client_body_temp_path \(d)/body; proxy_temp_path \(d)/proxy; fastcgi_temp_path \(d)/fastcgi;
              uwsgi_temp_path \(d)/uwsgi; scgi_temp_path \(d)/scgi;
            \(body)
            }
            """
        try conf.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-e", "\(d)/error.log", "-p", d, "-c", "\(d)/nginx.conf", "-g", "daemon off;"]
        try start()
    }

    /// Varnish with the VCL `vcl`, listening on one port.
    init(varnish vcl: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("varnish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        ports = [Int(try TestBroker.freePort())]
        stopSignal = SIGINT
        try vcl.write(to: directory.appendingPathComponent("default.vcl"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/varnishd")
        process.arguments = [
            "-F", "-j", "none", "-n", directory.appendingPathComponent("work").path, "-a", "127.0.0.1:\(ports[0])",
            "-f", directory.appendingPathComponent("default.vcl").path, "-s", "malloc,64m", "-T", "none",
        ]
        try start()
    }

    private func start() throws {
        let log = directory.appendingPathComponent("out.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
        let up = waitUntil(seconds: 20, every: 0.1) { (try? RawHTTP(port: self.ports[0])) != nil }
        try #require(up, "\(logText)")
    }

    var logText: String {
        ["out.log", "error.log"].compactMap {
            try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
    }

    static var installed: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")
            && FileManager.default.isExecutableFile(atPath: "/usr/sbin/varnishd")
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, stopSignal)
            if !waitUntil(seconds: 10, every: 0.1, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The gateway behind nginx and Varnish, configured with the snippets docs/operating.md gives (and nginx also with a
/// stock `proxy_pass`): events arrive within 0.5 s of the direct path (not held in a buffer), records are cached
/// and never served superseded past their max-age.
@Suite(.serialized, .enabled(if: ProxyProcess.installed, "nginx and varnish come with make deps"))
struct GatewayProxyTests {
    /// The first fenced block of `language` in the gateway section of docs/operating.md.
    static func documented(_ language: String) throws -> String {
        let guide = Fixtures.text("docs/operating.md")
        guard let start = guide.range(of: "```\(language)\n"),
            let end = guide.range(of: "```", range: start.upperBound..<guide.endIndex)
        else { throw TestBrokerError("docs/operating.md has no \(language) block") }
        return String(guide[start.upperBound..<end.lowerBound])
    }

    /// The documented nginx snippet pointed at `gatewayPort`: (its `http` part, its `server` part).
    static func nginxSnippet(gatewayPort: Int, cache: String) throws -> (http: String, server: String) {
        let text = try documented("nginx")
        let parts = text.components(separatedBy: "# In server { }:")
        try #require(parts.count == 2, "the nginx snippet has an http part and a server part")
        let http = parts[0].split(separator: "\n").map { line -> String in
            if line.hasPrefix("upstream layout_gateway") {
                return "upstream layout_gateway { server 127.0.0.1:\(gatewayPort); keepalive 64; }"
            }
            return String(line).replacingOccurrences(of: "/var/cache/nginx/layouts", with: cache)
        }.joined(separator: "\n")
        return (http, parts[1])
    }

    /// Reads the streams until each has its count of events (a stream with none to wait for: when its response
    /// head is in); when each got there.
    static func arrivals(_ streams: [RawHTTP], counts: [Int], timeout: Double = 15) -> [Date?] {
        var at = [Date?](repeating: nil, count: streams.count)
        let deadline = Date().addingTimeInterval(timeout)
        func done(_ i: Int) -> Bool {
            counts[i] > 0 ? streams[i].events.count >= counts[i] : streams[i].received.count > 0
        }
        while at.contains(where: { $0 == nil }) && Date() < deadline {
            for (i, s) in streams.enumerated() where at[i] == nil {
                s.read(timeout: 0.002) { _ in done(i) }
                if done(i) { at[i] = Date() }
            }
        }
        return at
    }

    @Test func behindNginxEventsArriveAtOnceAndRecordsAreCached() async throws {
        try await offThePool {
            let rig = try GatewayOnTopics()
            try rig.publish("k", version: 0)
            let gateway = try rig.start()
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
                "nginx-cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let snippet = try Self.nginxSnippet(gatewayPort: gateway.port, cache: cache.path)
            let nginx = try ProxyProcess(
                nginx: """
                    \(snippet.http)
                    server { listen 127.0.0.1:PORT0;
                    \(snippet.server)
                    }
                    server { listen 127.0.0.1:PORT1; location / { proxy_pass http://127.0.0.1:\(gateway.port); } }
                    """, ports: 2)
            let (documented, stock) = (nginx.ports[0], nginx.ports[1])
            #expect(
                try waitUntil(seconds: 30, every: 0.1) { try RawHTTP.get(documented, "/v1/layouts/k").status == 200 },
                "\(nginx.logText)")

            // Behind the stock block the stream resumes from the record it holds, so it gets the small events only:
            // with its default 4 KB buffers nginx 1.22 now and then stalls a stream in the middle of an event larger than
            // a buffer (the 45 KB opening record: 2 of 20 runs), which the documented snippet's 64 KB buffers avoid (0 of
            // 36); docs/operating.md says so.
            let streams = try [gateway.port, documented, stock].map { port in
                let s = try RawHTTP(port: port)
                s.request(
                    "/v1/layouts/k/changes", headers: port == stock ? ["Last-Event-ID": GatewayOnTopics.id(0)] : [:])
                return s
            }
            let opening = [1, 1, 0]  // events each stream gets before version 1
            /// The gateway's sockets and their queues (`ss`): whose side holds bytes when a stream stalls.
            func sockets() -> String {
                let ss = Process()
                ss.executableURL = URL(fileURLWithPath: "/usr/bin/ss")
                ss.arguments = [
                    "-tn",
                    "sport = :\(gateway.port) or dport = :\(gateway.port) or sport = :\(documented) or sport = :\(stock)",
                ]
                let out = Pipe()
                ss.standardOutput = out
                try? ss.run()
                let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                ss.waitUntilExit()
                return text
            }
            let opened = Self.arrivals(streams, counts: opening)
            #expect(
                opened.allSatisfy { $0 != nil },
                "direct, documented, stock: \(opened); what each got: \(streams.map { String(decoding: $0.received.prefix(300), as: UTF8.self) }); nginx: \(nginx.logText); sockets: \(sockets())"
            )
            for v in 1...3 {
                try rig.publish("k", version: v)
                let at = Self.arrivals(streams, counts: opening.map { $0 + v })
                let direct = try #require(at[0], "direct stream, version \(v)")
                for (name, arrival) in [("documented", at[1]), ("stock proxy_pass", at[2])] {
                    let arrived = try #require(arrival, "\(name) proxy, version \(v): \(nginx.logText); \(sockets())")
                    // A proxy that buffers holds these small events until its buffer fills (past `arrivals`' 15 s
                    // and the test's end); one that passes them on is a scheduling delay behind: 0.19 s once, and
                    // 0.89 s once, with make test's stages on both cores of a busy machine.
                    #expect(
                        arrived.timeIntervalSince(direct) < 3, "\(name): \(arrived.timeIntervalSince(direct)) s later"
                    )
                }
                #expect(streams.allSatisfy { $0.events.last?.id == GatewayOnTopics.id(v) })
            }

            // GETs through the documented snippet are cached a second (max-age=1), then revalidated: the newest record
            // is served within two seconds of the gateway having it (nginx's cache clock counts whole seconds), and 40
            // GETs in half a second reach the gateway a few times.
            // (Streams move on change sets, GETs on the latest-layout topic: the gateway's own GET is waited for.)
            #expect(
                try waitUntil(seconds: 10, every: 0.1) {
                    try RawHTTP.get(gateway.port, "/v1/layouts/k").body == GatewayOnTopics.record(3)
                })
            let gatewayHasIt = Date()
            let served = waitUntil(seconds: 5, every: 0.1) {
                (try? RawHTTP.get(documented, "/v1/layouts/k"))?.body == GatewayOnTopics.record(3)
            }
            #expect(
                served && Date().timeIntervalSince(gatewayHasIt) < 2.2, "\(Date().timeIntervalSince(gatewayHasIt)) s")
            let before = try GatewayEdgeTests.metric(gateway.opsPort, "layout_gateway_record_requests_total") ?? 0
            var hits = 0
            for _ in 0..<40 {
                let got = try RawHTTP.get(documented, "/v1/layouts/k")
                #expect(got.status == 200 && got.body == GatewayOnTopics.record(3))
                if got.headers["x-cache-status"] == "HIT" { hits += 1 }
                usleep(12_000)
            }
            let reached =
                (try GatewayEdgeTests.metric(gateway.opsPort, "layout_gateway_record_requests_total") ?? 0) - before
            #expect(hits >= 30 && reached <= 3, "\(hits) hits, \(reached) requests reached the gateway")
        }
    }

    @Test func behindVarnishARecordIsNeverServedPastItsMaxAge() async throws {
        try await offThePool {
            let rig = try GatewayOnTopics()
            try rig.publish("k", version: 0)
            let gateway = try rig.start()
            let vcl = try Self.documented("vcl").replacingOccurrences(
                of: #".host = "10.0.0.5"; .port = "8090";"#, with: #".host = "127.0.0.1"; .port = "\#(gateway.port)";"#)
            let varnish = try ProxyProcess(varnish: vcl)
            let port = varnish.ports[0]
            #expect(
                try waitUntil(seconds: 30, every: 0.1) { try RawHTTP.get(port, "/v1/layouts/k").status == 200 },
                "\(varnish.logText)")
            let stream = try RawHTTP(port: port)
            stream.request("/v1/layouts/k/changes")
            #expect(stream.read(timeout: 10) { _ in stream.events.count >= 1 }, "the stream through varnish")
            for v in 1...3 {
                // Varnish holds version v - 1 (asked for just now); v is published.
                #expect(try RawHTTP.get(port, "/v1/layouts/k").body == GatewayOnTopics.record(v - 1))
                try rig.publish("k", version: v)
                #expect(
                    try waitUntil(seconds: 10, every: 0.1) {
                        try RawHTTP.get(gateway.port, "/v1/layouts/k").body == GatewayOnTopics.record(v)
                    })
                let gatewayHasIt = Date()
                let served = waitUntil(seconds: 5, every: 0.1) {
                    (try? RawHTTP.get(port, "/v1/layouts/k"))?.body == GatewayOnTopics.record(v)
                }
                let after = Date().timeIntervalSince(gatewayHasIt)
                #expect(served && after < 1.5, "version \(v) served by varnish \(after) s after the gateway had it")
                #expect(
                    stream.read(timeout: 10) { _ in stream.events.count >= 1 + v }, "stream event \(v) through varnish")
            }
        }
    }
}
