public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
public import ServiceLifecycle

/// Answers requests to a `PlainHTTPServer`.
public protocol PlainResponder: Sendable {
    func respond(to request: PlainRequest) async -> PlainResponse
}

/// The HTTP/1.1 server of the ops endpoints and the preview, on SwiftNIO as a lifecycle service: every connection is
/// served concurrently on an event loop (idle or slow clients cannot delay a probe), requests on one connection in
/// order (keep-alive and pipelining), bodies of requests ignored. Connections idle for `idleTimeout` are closed
/// (nil: never, for streams of events). A graceful shutdown stops listening and closes every connection.
public struct PlainHTTPServer<Responder: PlainResponder>: Service {
    public let host: String
    public let port: Int
    public let serverName: String
    public let idleTimeout: Duration?
    public let responder: Responder
    public let logger: Logger
    /// Gets the bound port (useful with port 0).
    public let onListening: @Sendable (Int) -> Void

    public init(
        host: String, port: Int, serverName: String, idleTimeout: Duration?, responder: Responder, logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.host = host
        self.port = port
        self.serverName = serverName
        self.idleTimeout = idleTimeout
        self.responder = responder
        self.logger = logger
        self.onListening = onListening
    }

    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    public func run() async throws {
        let idle = idleTimeout.map { TimeAmount($0) }
        // Accepted connections reach the loop below as plain channels, not reading yet: each is wrapped
        // (`NIOAsyncChannel`) by the task that serves it. A connection wrapped as it is accepted and then dropped
        // by a closing server, one accepted while a graceful shutdown closes the listener, ends the process
        // (NIOAsyncWriter's precondition: deinited without finish).
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.autoRead, value: false)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    if let idle {
                        try pipeline.addHandler(IdleStateHandler(readTimeout: idle))
                        try pipeline.addHandler(ClosingWhenIdle())
                    }
                    return channel
                }
            }
        let bound = server.channel.localAddress?.port ?? port
        let address = Logger.MetadataValue.string(OpsAddress(host: host, port: bound).description)
        logger.info("\(serverName) listening", metadata: ["address": address])
        onListening(bound)
        try await withGracefulShutdownHandler {
            try await server.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask { await serve(connection) }
                    }
                }
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
        }
        logger.info("\(serverName) stopped listening", metadata: ["address": address])
    }

    /// One connection's requests, in order, until it closes, asks to, or the server shuts down.
    private func serve(_ channel: any Channel) async {
        await withGracefulShutdownHandler {
            do {
                // Wrapped on its event loop before it reads, so no request passes the async handlers by.
                let connection = try await channel.eventLoop.submit {
                    let connection = try Connection(wrappingChannelSynchronously: channel)
                    try channel.syncOptions?.setOption(.autoRead, value: true)
                    return connection
                }.get()
                try await connection.executeThenClose { requests, responses in
                    var head: HTTPRequestHead?
                    for try await part in requests {
                        switch part {
                        case .head(let h): head = h
                        case .body: continue
                        case .end:
                            guard let request = head else { continue }
                            head = nil
                            let response = await responder.respond(
                                to: PlainRequest(method: request.method, uri: request.uri))
                            try await write(response, for: request, to: responses)
                            if !request.isKeepAlive { return }
                        }
                    }
                }
            } catch {
                logger.debug("connection ended", metadata: ["error": "\(error)"])
                channel.close(promise: nil)
            }
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
    }

    private func write(
        _ response: PlainResponse, for request: HTTPRequestHead,
        to responses: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        var headers = response.headers
        headers.replaceOrAdd(name: "Server", value: "layout-worker")
        if !request.isKeepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = { (headers: HTTPHeaders) in
            HTTPServerResponsePart.head(
                HTTPResponseHead(version: request.version, status: response.status, headers: headers))
        }
        switch response.body {
        case .bytes(let body):
            headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
            try await responses.write(head(headers))
            if request.method != .HEAD { try await responses.write(.body(.byteBuffer(body))) }
        case .streamed(let produce):
            guard request.method != .HEAD else {
                try await responses.write(head(headers))
                break
            }
            // No length: SwiftNIO's encoder frames the body as chunks (HTTP/1.1).
            try await responses.write(head(headers))
            try await produce { chunk in try await responses.write(.body(.byteBuffer(chunk))) }
        }
        try await responses.write(.end(nil))
    }
}

/// Closes a connection that read nothing for the idle timeout (`IdleStateHandler`'s event).
private final class ClosingWhenIdle: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
