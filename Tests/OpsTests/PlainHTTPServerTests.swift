import Dispatch
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Testing

@testable import Ops

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP server of the ops endpoints and the preview, in process: queries, HEAD, a streamed body, and a graceful
/// shutdown that ends a stream still open.
@Suite struct PlainHTTPServerTests {
    /// "/q" echoes its query; "/stream" writes two chunks, then holds the stream open until a graceful shutdown.
    struct Echo: PlainResponder {
        func respond(to request: PlainRequest) async -> PlainResponse {
            switch request.path {
            case "/q":
                return .text(
                    .ok, request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
                )
            case "/stream":
                return PlainResponse(
                    status: .ok, headers: ["Content-Type": "text/event-stream"],
                    body: .streamed { write in
                        try await write(ByteBuffer(string: "data: a\n\n"))
                        try await write(ByteBuffer(string: "data: b\n\n"))
                        let (never, _) = AsyncStream<Int>.makeStream()
                        for await _ in never.cancelOnGracefulShutdown() {}
                    })
            default:
                return .text(.notFound, "not found\n")
            }
        }
    }

    /// Runs the server's tasks on Dispatch's threads: the cooperative pool (two threads on two cores) is shared with
    /// every test running at once, and synchronous tests hold its threads for seconds.
    final class DispatchTaskExecutor: TaskExecutor {
        let queue = DispatchQueue(label: "plain-http-server-tests", attributes: .concurrent)

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// A loopback connection to `port` that reads with a deadline.
    final class Client: @unchecked Sendable {
        let fd: Int32
        var received = ""

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }

        /// Reads until `done` holds for what was received, or the connection ends (true), or `seconds` pass.
        @discardableResult func read(seconds: Double, until done: (String) -> Bool = { _ in false }) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline && !done(received) {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n == 0 { return true }
                if n > 0 { received += String(decoding: buffer[0..<n], as: UTF8.self) }
            }
            return done(received)
        }

        /// `read` on a thread of Dispatch's, not the test's (a blocking read would hold a thread of the cooperative
        /// pool).
        func reading(seconds: Double, until done: @escaping @Sendable (String) -> Bool = { _ in false }) async -> Bool {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: self.read(seconds: seconds, until: done))
                }
            }
        }

        deinit { close(fd) }
    }

    @Test func queriesHeadStreamsAndAGracefulShutdownThatEndsAnOpenStream() async throws {
        let (bound, port) = AsyncStream<Int>.makeStream()
        let server = PlainHTTPServer(
            host: "127.0.0.1", port: 0, serverName: "test", idleTimeout: .seconds(30), responder: Echo(),
            logger: Logger(label: "test"), onListening: { port.yield($0) })
        let group = ServiceGroup(services: [server], logger: Logger(label: "test"))
        let running = Task(executorPreference: DispatchTaskExecutor()) { try await group.run() }
        var ports = bound.makeAsyncIterator()
        let listening = try #require(await ports.next())

        let query = try Client(port: listening)
        query.send("GET /q?b=1+2&a=x%20y%2F&flag HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(await query.reading(seconds: 10), "the server kept a Connection: close request open: \(query.received)")
        #expect(query.received.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(query.received)")
        #expect(query.received.hasSuffix("\r\n\r\na=x y/;b=1 2;flag="), "\(query.received)")

        let head = try Client(port: listening)
        head.send("HEAD /q?a=1 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(await head.reading(seconds: 10))
        #expect(
            head.received.contains("Content-Length: 3\r\n") && head.received.hasSuffix("\r\n\r\n"), "\(head.received)")

        let stream = try Client(port: listening)
        stream.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(
            await stream.reading(seconds: 10) { $0.contains("data: b\n\n") },
            "two chunks, as written: \(stream.received)")
        #expect(stream.received.lowercased().contains("transfer-encoding: chunked\r\n"), "\(stream.received)")
        #expect(await !stream.reading(seconds: 0.3), "the stream stays open until the shutdown")

        await group.triggerGracefulShutdown()
        #expect(await stream.reading(seconds: 10), "the shutdown ended the open stream: \(stream.received.suffix(200))")
        try await running.value
        #expect((try? Client(port: listening)) == nil, "nothing listens after the shutdown")
    }

    @Test func queryStringsDecode() {
        let request = PlainRequest(method: .GET, uri: "/explain?page=1&section=%32&row=3&x=%zz&y=a+b&page=4")
        #expect(request.path == "/explain")
        #expect(request.query == ["page": "4", "section": "2", "row": "3", "x": "%zz", "y": "a b"])
        #expect(PlainRequest(method: .GET, uri: "/healthz").query.isEmpty)
    }
}
