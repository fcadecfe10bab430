import NIOCore
import NIOHTTP1
import NIOPosix

/// GETs from the origin over HTTP/1.1 on the gateway's event loops (SwiftNIO's client codec): one connection per
/// request, closed after it. Connecting and reading the whole response each have the settings' timeout; a response
/// larger than the limit is cut off and refused.
struct OriginClient: Sendable {
    let base: OriginURL
    let timeout: TimeAmount
    let maxResponseBytes: Int
    let group: any EventLoopGroup

    /// What the origin answered.
    struct Response: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]
    }

    /// The origin's address when its host is an IP address (nil: a name, resolved per request).
    let address: SocketAddress?

    init(base: OriginURL, timeout: TimeAmount, maxResponseBytes: Int, group: any EventLoopGroup) {
        self.base = base
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.group = group
        address = try? SocketAddress(ipAddress: base.host, port: base.port)
    }

    /// Validators of a held copy, sent so an unchanged state comes back as 304.
    struct Validators: Sendable, Equatable {
        var etag: String?
        var lastModified: String?
    }

    /// The URL of `state`, as a record's `source.origin` names it.
    func url(of state: NavigationState) -> String { "\(base)\(state.target)" }

    /// The origin's answer to a GET of `state`, on `loop` (connecting, writing and reading there); fails with an
    /// `OriginFailure`.
    func get(_ state: NavigationState, validators: Validators?, on loop: any EventLoop) -> EventLoopFuture<Response> {
        let promise = loop.makePromise(of: Response.self)
        let deadline = loop.scheduleTask(in: timeout) { promise.fail(OriginFailure.timedOut) }
        promise.futureResult.whenComplete { _ in deadline.cancel() }
        var headers = HTTPHeaders([
            ("host", base.hostHeader), ("accept", "application/json"), ("user-agent", "layout-gateway"),
            ("connection", "close"),
        ])
        if let etag = validators?.etag { headers.add(name: "if-none-match", value: etag) }
        if let date = validators?.lastModified { headers.add(name: "if-modified-since", value: date) }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: base.prefix + state.target, headers: headers)
        let maxBytes = maxResponseBytes
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        ResponseCollector(promise: promise, maxBytes: maxBytes))
                }
            }
        // An IP address is connected to as it is; a host name is resolved for each request (NIO's resolver runs
        // getaddrinfo off the loop: a thread hop, and DNS changes are followed).
        let connecting =
            address.map { bootstrap.connect(to: $0) } ?? bootstrap.connect(host: base.host, port: base.port)
        connecting.whenComplete { connected in
            switch connected {
            case .failure(let error):
                promise.fail(OriginFailure.connecting(error))
            case .success(let channel):
                promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            }
        }
        return promise.futureResult
    }
}

/// Gathers one response, failing at the size limit, a reset or a close before its end.
private final class ResponseCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    let promise: EventLoopPromise<OriginClient.Response>
    let maxBytes: Int
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []

    init(promise: EventLoopPromise<OriginClient.Response>, maxBytes: Int) {
        self.promise = promise
        self.maxBytes = maxBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            if let length = h.headers.first(name: "content-length").flatMap(Int.init), length > maxBytes {
                fail(.tooLarge(limit: maxBytes), context)
            } else if let length = h.headers.first(name: "content-length").flatMap(Int.init) {
                body.reserveCapacity(length)
            }
        case .body(let buffer):
            guard body.count + buffer.readableBytes <= maxBytes else {
                return fail(.tooLarge(limit: maxBytes), context)
            }
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head else { return fail(.reset, context) }
            promise.succeed(OriginClient.Response(status: Int(head.status.code), headers: head.headers, body: body))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(OriginFailure.reset)  // no effect once the response was complete
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.reset, context)
    }

    private func fail(_ failure: OriginFailure, _ context: ChannelHandlerContext) {
        promise.fail(failure)
        context.close(promise: nil)
    }
}
