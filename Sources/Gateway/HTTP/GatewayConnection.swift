import NIOCore
import NIOHTTP1

/// One connection: HTTP requests answered in order until one asks for a stream; then the request decoder is taken
/// out of the pipeline and the connection becomes a stream of one page, held by its event loop's `LoopStreams`,
/// written the shared bytes of each event. Its client leaving (the read side closing, or a reset) closes it at
/// once and frees its slot. A connection that does not send a whole request within the request timeout (a
/// slowloris, or an idle kept-alive one) is closed.
final class GatewayConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    let shared: ListenerContext
    let port: GatewayEndpoints.Port
    private var decoder: ByteToMessageHandler<HTTPRequestDecoder>?
    private var head: HTTPRequestHead?
    private var deadline: RequestDeadline?
    private var context: ChannelHandlerContext?
    /// An answer is being made off the loop (a state fetched from the origin, a posted response compiled): requests
    /// pipelined behind it wait here, answered in order once it is written.
    private var waiting = false
    private var queued: [(HTTPRequestHead, [UInt8])] = []
    /// A `POST /v1/compile` body being read: its bytes and limit (nil: the body is not wanted).
    private var body: (bytes: [UInt8], maxBytes: Int, cors: [(String, String)])?
    private var bodyTooLarge = false
    /// The last answer's head, written over by the next one (its storage is reused once the socket took it).
    private var headBytes = ByteBuffer()

    // As a stream:
    private(set) var key = ""
    /// Its place in its loop's list of the page's streams (-1: none).
    var slot = -1
    private var streaming = false
    private var chunked = true
    private var cursor = StreamCursor(held: nil, floor: nil)
    /// An event did not fit (the client reads slower than events come): once it catches up, it gets the record.
    private var behind = false

    init(shared: ListenerContext, port: GatewayEndpoints.Port, decoder: ByteToMessageHandler<HTTPRequestDecoder>) {
        self.shared = shared
        self.port = port
        self.decoder = decoder
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        deadline = RequestDeadline(timeout: shared.requestTimeout, channel: context.channel)
        deadline?.arm()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.stop()
        deadline = nil
        if streaming {
            streaming = false
            shared.hub.streams(on: context.eventLoop).remove(self)
            shared.book.unsubscribe(key)
        }
        self.context = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !streaming else { return }  // a stream's client has nothing more to say
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = nil
            bodyTooLarge = false
            if case .POST = h.method, case .compile(let max, let cors, _) = shared.endpoints.answer(h, on: port) {
                body = ([], max, cors)
            }
        case .body(let buffer):
            guard var b = body else { return }
            body = nil  // one owner of the bytes while they grow
            if b.bytes.count + buffer.readableBytes > b.maxBytes {
                bodyTooLarge = true
            } else {
                b.bytes.append(contentsOf: buffer.readableBytesView)
                body = b
            }
        case .end:
            guard let head else { return }
            self.head = nil
            let posted = body?.bytes ?? []
            if bodyTooLarge {
                bodyTooLarge = false
                return respond(shared.endpoints.tooLarge(), head, context, keepAlive: false)
            }
            if waiting {
                queued.append((head, posted))
            } else {
                answer(head, posted, context)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !streaming, context.channel.isActive else {
            context.close(promise: nil)
            return
        }
        if error is HTTPParserError {
            let refused = HTTPAnswer.error(.badRequest, "bad-request", "the request is not valid HTTP/1.1")
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(refused.bytes(headOnly: false, keepAlive: false))).whenComplete {
                _ in channel.close(promise: nil)
            }
        } else {
            context.close(promise: nil)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if streaming, behind, context.channel.isWritable {
            behind = false
            sendCurrentRecord()
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: Requests

    private func answer(_ head: HTTPRequestHead, _ posted: [UInt8], _ context: ChannelHandlerContext) {
        switch shared.endpoints.answer(head, on: port) {
        case .response(let response):
            respond(response, head, context)
        case .origin(let key, let state, let held, let cors):
            guard let origin = shared.origin else { return }
            let endpoints = shared.endpoints
            later(head, context, origin.fetch(key, state, held: held, on: context.eventLoop)) { result in
                endpoints.stateAnswer(result.mapError { $0 as any Error }, key: key, head, cors: cors, origin)
            }
        case .compile(_, let cors, let compilers):
            let endpoints = shared.endpoints
            let compiled = context.eventLoop.makeFutureWithTask { endpoints.compile(posted, cors: cors, compilers) }
            later(head, context, compiled) { result in
                (try? result.get()) ?? .error(.internalServerError, "compile-failed", "the compile did not finish")
            }
        case .stream(let key, let from, let headers, let state):
            guard let opening = shared.book.subscribe(key, from: from, limit: shared.limits.streams) else {
                shared.metrics.streamsRefused.increment()
                var busy = HTTPAnswer.error(
                    .serviceUnavailable, "too-many-streams",
                    "this gateway follows as many streams as its descriptors and memory allow; try again (or another replica)"
                )
                busy.set("retry-after", String(shared.limits.retryAfterSeconds))
                respond(busy, head, context, keepAlive: false)
                return
            }
            startStream(
                key, opening, headers: headers, http11: head.version != .http1_0 && head.version != .http0_9, context)
            if let state, let origin = shared.origin {
                // A navigation state: what is held goes out now; the origin is asked when it is not fresh, and
                // the state followed while streams are open.
                if opening.catchUp.isEmpty { sendCurrentRecord() }
                origin.watch(key, state, on: context.eventLoop)
            }
        }
    }

    /// Answers `head` once `work` is done (off the loop), then the requests pipelined behind it, in order.
    private func later<T: Sendable>(
        _ head: HTTPRequestHead, _ context: ChannelHandlerContext, _ work: EventLoopFuture<T>,
        _ make: @escaping @Sendable (Result<T, any Error>) -> HTTPAnswer
    ) {
        deadline?.disarm()
        waiting = true
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        work.hop(to: context.eventLoop).whenComplete { result in
            let connection = loopBound.value
            connection.waiting = false
            guard let context = connection.context, context.channel.isActive else { return }
            connection.respond(make(result), head, context)
            while !connection.waiting, !connection.queued.isEmpty, connection.context != nil {
                let (next, posted) = connection.queued.removeFirst()
                connection.answer(next, posted, context)
            }
        }
    }

    private func respond(
        _ response: HTTPAnswer, _ head: HTTPRequestHead, _ context: ChannelHandlerContext, keepAlive: Bool = true
    ) {
        let keep = keepAlive && head.isKeepAlive
        deadline?.disarm()
        // The head, then the body as it is held (a record's bytes are not copied behind the head): one writev. A
        // connection kept open needs no word of the write (no future made per answer).
        let promise = keep ? nil : context.eventLoop.makePromise(of: Void.self)
        let bytes: ByteBuffer
        if keep, let prepared = response.preparedHead {
            bytes = prepared
        } else {
            headBytes.clear()
            response.writeHead(keepAlive: keep, into: &headBytes)
            bytes = headBytes
        }
        if let body = response.body, body.readableBytes > 0, !head.isHEAD {
            context.write(wrapOutboundOut(bytes), promise: nil)
            context.writeAndFlush(wrapOutboundOut(body), promise: promise)
        } else {
            context.writeAndFlush(wrapOutboundOut(bytes), promise: promise)
        }
        if keep {
            deadline?.arm()
        } else if let promise {
            let channel = context.channel
            promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    // MARK: As a stream

    private func startStream(
        _ key: String, _ opening: PageBook.Opening, headers: [(String, String)], http11: Bool,
        _ context: ChannelHandlerContext
    ) {
        deadline?.stop()
        deadline = nil
        if let decoder {
            context.pipeline.syncOperations.removeHandler(decoder, promise: nil)
            self.decoder = nil
        }
        self.key = key
        chunked = http11
        streaming = true
        cursor = opening.cursor
        shared.hub.streams(on: context.eventLoop).add(self)
        shared.metrics.streamsOpened.increment()
        var out = ByteBuffer()
        // HTTP/1.0 has no chunked coding (RFC 9112 §7.1): the body ends with the connection.
        HTTPAnswer.writeHead(
            .ok, headers + (http11 ? [("transfer-encoding", "chunked")] : [("connection", "close")]), into: &out)
        // A retry hint, and an opening comment so proxies pass the headers on at once.
        let opener = EventBytes.frames(Array("retry: 2000\n: open\n\n".utf8))
        out.writeImmutableBuffer(http11 ? opener.chunked : opener.plain)
        context.write(wrapOutboundOut(out), promise: nil)
        for event in opening.catchUp {
            context.write(wrapOutboundOut(http11 ? event.chunked : event.plain), promise: nil)
        }
        context.flush()
        if !opening.catchUp.isEmpty { shared.metrics.eventsWritten.increment(by: Int64(opening.catchUp.count)) }
    }

    /// Writes `event` if this stream's client takes it; whether it was written.
    func take(_ event: EventBytes) -> Bool {
        guard streaming, let context else { return false }
        switch cursor.decide(event.event) {
        case .skip: return false
        case .sendRecord: return sendCurrentRecord()
        case .send:
            guard context.channel.isWritable else {
                behind = true
                return false
            }
            context.writeAndFlush(wrapOutboundOut(chunked ? event.chunked : event.plain), promise: nil)
            cursor.moved(to: event.event.target)
            return true
        }
    }

    /// The page's record, when it is news to the client and not older than what it holds.
    @discardableResult
    private func sendCurrentRecord() -> Bool {
        guard let context, let (record, at) = shared.currentRecord(key), cursor.wants(record: at) else { return false }
        guard context.channel.isWritable else {
            behind = true
            return false
        }
        let frames = EventBytes.frames(GatewayEvent.record(record, at: at).serverSentEvent)
        context.writeAndFlush(wrapOutboundOut(chunked ? frames.chunked : frames.plain), promise: nil)
        cursor.moved(to: at)
        shared.metrics.recordsForSlowStreams.increment()
        return true
    }

    func heartbeat() {
        guard streaming, let context, context.channel.isWritable else { return }
        context.writeAndFlush(
            wrapOutboundOut(chunked ? EventBytes.heartbeat.chunked : EventBytes.heartbeat.plain), promise: nil)
    }

    /// Ends the stream (the gateway stops): the last chunk, then close.
    func end() {
        guard streaming, let context else { return }
        if chunked {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(EventBytes.lastChunk)).whenComplete { _ in
                channel.close(promise: nil)
            }
        } else {
            context.close(promise: nil)
        }
    }
}
