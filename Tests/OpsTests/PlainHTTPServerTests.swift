import Dispatch
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import TestSupport
import Testing

@testable import Ops

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

    /// `client.read` on a thread of Dispatch's, not the test's (a blocking read would hold a thread of the
    /// cooperative pool): true when `done` holds for what arrived, or the connection closed.
    func reading(_ client: RawHTTP, seconds: Double, until done: @escaping @Sendable (String) -> Bool = { _ in false })
        async -> Bool
    {
        nonisolated(unsafe) let client = client
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let held = client.read(timeout: seconds) { done(String(decoding: $0, as: UTF8.self)) }
                continuation.resume(returning: held || client.closed)
            }
        }
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

        let query = try RawHTTP(port: listening)
        query.sendRaw("GET /q?b=1+2&a=x%20y%2F&flag HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(await reading(query, seconds: 10), "the server kept a Connection: close request open: \(text(query))")
        #expect(text(query).hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text(query))")
        #expect(text(query).hasSuffix("\r\n\r\na=x y/;b=1 2;flag="), "\(text(query))")

        let head = try RawHTTP(port: listening)
        head.sendRaw("HEAD /q?a=1 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(await reading(head, seconds: 10))
        #expect(
            text(head).contains("Content-Length: 3\r\n") && text(head).hasSuffix("\r\n\r\n"), "\(text(head))")

        let stream = try RawHTTP(port: listening)
        stream.sendRaw("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(
            await reading(stream, seconds: 10) { $0.contains("data: b\n\n") },
            "two chunks, as written: \(text(stream))")
        #expect(text(stream).lowercased().contains("transfer-encoding: chunked\r\n"), "\(text(stream))")
        #expect(await !reading(stream, seconds: 0.3), "the stream stays open until the shutdown")

        await group.triggerGracefulShutdown()
        #expect(await reading(stream, seconds: 10), "the shutdown ended the open stream: \(text(stream).suffix(200))")
        try await running.value
        #expect((try? RawHTTP(port: listening)) == nil, "nothing listens after the shutdown")
    }

    func text(_ client: RawHTTP) -> String { String(decoding: client.received, as: UTF8.self) }

    @Test func queryStringsDecode() {
        let request = PlainRequest(method: .GET, uri: "/explain?page=1&section=%32&row=3&x=%zz&y=a+b&page=4")
        #expect(request.path == "/explain")
        #expect(request.query == ["page": "4", "section": "2", "row": "3", "x": "%zz", "y": "a b"])
        #expect(PlainRequest(method: .GET, uri: "/healthz").query.isEmpty)
    }
}
