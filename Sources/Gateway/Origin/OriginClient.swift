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

    /// Validators of a held copy, sent so an unchanged state comes back as 304.
    struct Validators: Sendable, Equatable {
        var etag: String?
        var lastModified: String?
    }

    /// The URL of `state`, as a record's `source.origin` names it.
    func url(of state: NavigationState) -> String { "\(base)\(state.target)" }

    func get(_ state: NavigationState, validators: Validators?) async throws(OriginFailure) -> Response {
        let loop = group.next()
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .connectTimeout(timeout)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    }
                }
                .connect(host: base.host, port: base.port).get()
        } catch {
            throw OriginFailure.connecting(error)
        }
        let promise = loop.makePromise(of: Response.self)
        let maxBytes = maxResponseBytes
        var headers = HTTPHeaders([
            ("host", base.hostHeader), ("accept", "application/json"), ("user-agent", "layout-gateway"),
            ("connection", "close"),
        ])
        if let etag = validators?.etag { headers.add(name: "if-none-match", value: etag) }
        if let date = validators?.lastModified { headers.add(name: "if-modified-since", value: date) }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: base.prefix + state.target, headers: headers)
        let deadline = loop.scheduleTask(in: timeout) { promise.fail(OriginFailure.timedOut) }
        loop.execute {
            do {
                try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: promise, maxBytes: maxBytes))
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            } catch {
                promise.fail(OriginFailure.reset)
            }
        }
        defer {
            deadline.cancel()
            channel.close(promise: nil)
        }
        do {
            return try await promise.futureResult.get()
        } catch let failure as OriginFailure {
            throw failure
        } catch {
            throw OriginFailure.reset
        }
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
