import Foundation
public import Hummingbird
import LayoutJSON
import LayoutKit
import Ops
import Prometheus
import ServiceLifecycle

/// The gateway's HTTP answers:
/// - `GET /v1/layouts/{key}`: the page's latest record as published, `ETag` its content hash, 304 for a matching
///   `If-None-Match`, gzip when accepted; 404 with a JSON error for a page never laid out (or, without a page
///   store, let go: `evicted`);
/// - `GET /v1/layouts/{key}/changes`: server-sent events: the record (or the change sets since `Last-Event-ID`),
///   then every change set as it arrives, heartbeats while idle;
/// - `/healthz`, `/readyz` (ready once the latest layouts were read to their end), `/metrics`;
/// - `/?key=...`: a live page following one key with the web client's `LayoutFeed` (what `make run` opens).
/// Keys are URL-decoded once (a `/` in a key is written `%2F`) and at most `maxKeyBytes` long.
public struct GatewayEndpoints: HTTPResponder {
    public typealias Context = BasicRequestContext
    let settings: GatewaySettings
    let book: PageBook
    let status: GatewayStatus
    let metrics: GatewayMetrics

    /// The live page (`/?key=...`) and its files, compiled in from `clients/web`.
    let page = EmbeddedPage(files: WebFiles.all)

    public init(settings: GatewaySettings, book: PageBook, status: GatewayStatus, metrics: GatewayMetrics) {
        self.settings = settings
        self.book = book
        self.status = status
        self.metrics = metrics
    }

    static let prefix = "/v1/layouts/"
    static let changesSuffix = "changes"
    /// `Cache-Control` of a record: a shared cache may keep it a second, then revalidates with its `ETag`.
    public static let recordCacheControl = "public, max-age=1, must-revalidate"

    public func respond(to request: Request, context: Context) async throws -> Response {
        if let refused = PlainResponse.refusingWrites(request) { return refused }
        let path = request.uri.path
        switch path {
        case "/healthz":
            return PlainResponse.text(status.isAlive ? .ok : .serviceUnavailable, status.isAlive ? "ok\n" : "stalled\n")
        case "/readyz":
            guard let why = status.notReady else {
                let warning = status.pageStoreProblem.map { "; warning: working from memory: \($0)" } ?? ""
                return PlainResponse.text(.ok, "ready\(warning)\n")
            }
            return PlainResponse.text(.serviceUnavailable, "not ready: \(why)\n")
        case "/metrics":
            var headers = HTTPFields()
            headers[.contentType] = MetricsExposition.contentType
            headers[.cacheControl] = "no-store"
            return Response(
                status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.render(book, status))))
        default: break
        }
        if let file = page.response(for: request) { return file }
        guard path.hasPrefix(Self.prefix) else { return Self.error(.notFound, "not-found", "no such path") }
        let parts = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || (parts.count == 2 && parts[1] == Self.changesSuffix) else {
            return Self.error(.notFound, "not-found", "paths are /v1/layouts/{key} and /v1/layouts/{key}/changes")
        }
        // Until the latest layouts are read to their end, what is held may be older than what was published: a
        // client would be sent a page going back in time.
        if let why = status.notReady {
            var response = Self.error(.serviceUnavailable, "not-ready", "the gateway is \(why); try again shortly")
            response.headers[.retryAfter] = "1"
            return response
        }
        let key: String
        switch PageKey.decode(parts[0], maxBytes: settings.maxKeyBytes) {
        case .success(let k): key = k
        case .failure(let problem): return Self.error(problem.status, problem.code, problem.message)
        }
        if parts.count == 2 { return stream(key, request) }
        return record(key, request)
    }

    // MARK: A record

    func record(_ key: String, _ request: Request) -> Response {
        metrics.recordRequests.increment()
        let (record, hash): ([UInt8], ContentHash)
        switch book.read(key) {
        case .page(let r, let h): (record, hash) = (r, h)
        case .unknown: return Self.error(.notFound, "unknown-page", "no layout for this key", key: key)
        case .evicted:
            return Self.error(
                .notFound, "evicted",
                "this page was let go to stay within the gateway's memory (it runs without a page store: --state-dir off or unusable); it is served again once it changes",
                key: key)
        }
        var headers = HTTPFields()
        let etag = "\"\(hash)\""
        headers[.eTag] = etag
        headers[.cacheControl] = Self.recordCacheControl
        headers[.vary] = "Accept-Encoding"
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag) {
            metrics.notModified.increment()
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = Wire.recordContentType
        var body = record
        if Self.acceptsGzip(request.headers[.acceptEncoding]), record.count > 256,
            let compressed = book.gzipRecord(key, hash: hash, record: record)
        {
            headers[.contentEncoding] = "gzip"
            body = compressed
        }
        metrics.bytesSent.increment(by: Int64(body.count))
        let response = Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// Whether an `If-None-Match` value names `etag` (a list, weak tags and `*` included).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { tag in
            let t = tag.trimmingCharacters(in: .whitespaces)
            return t == "*" || t == etag || t == "W/" + etag
        }
    }

    /// Whether `Accept-Encoding` takes gzip (and does not refuse it with `q=0`).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.lowercased().split(separator: ",").contains { item in
            let fields = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.first == "gzip" || fields.first == "*" else { return false }
            let q = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) }
            return q.map { $0 > 0 } ?? true
        }
    }

    // MARK: A stream

    func stream(_ key: String, _ request: Request) -> Response {
        var resumeFrom: ContentHash?
        if let text = request.headers.first(where: { $0.name.canonicalName == "last-event-id" })?.value, !text.isEmpty {
            guard let hash = ContentHash(hex: text.trimmingCharacters(in: .whitespaces)) else {
                return Self.error(
                    .badRequest, "bad-last-event-id", "Last-Event-ID must be a content hash (16 hex digits)", key: key)
            }
            resumeFrom = hash
        }
        guard book.figures.streams < settings.maxStreams else {
            return Self.error(.serviceUnavailable, "too-many-streams", "the gateway follows as many streams as it can")
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let stream = book.subscribe(key, lastEventID: resumeFrom)
        let (book, metrics, resumed) = (self.book, self.metrics, resumeFrom)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                metrics.streamsOpened.increment()
                var held = resumed
                do {
                    // A retry hint, and an opening comment so proxies pass the headers on at once.
                    try await writer.write(ByteBuffer(string: "retry: 2000\n: open\n\n"))
                    for await item in stream.items.cancelOnGracefulShutdown() {
                        var needsRecord = stream.takeOverflow()
                        switch item {
                        case .heartbeat:
                            try await writer.write(ByteBuffer(bytes: GatewayEvent.heartbeat))
                        case .event(let event):
                            switch Self.decide(event, holding: held) {
                            case .send:
                                try await writer.write(ByteBuffer(bytes: event.serverSentEvent))
                                metrics.eventsWritten.increment()
                                held = event.target
                            case .skip: break
                            case .sendRecord: needsRecord = true
                            }
                        }
                        if needsRecord, case .page(let record, let hash) = book.read(key), hash != held {
                            try await writer.write(
                                ByteBuffer(bytes: GatewayEvent.record(record, hash: hash).serverSentEvent))
                            metrics.eventsWritten.increment()
                            metrics.recordsForSlowStreams.increment()
                            held = hash
                        }
                    }
                } catch {
                    book.unsubscribe(key, stream)
                    throw error
                }
                book.unsubscribe(key, stream)
                try await writer.finish(nil)
            })
    }

    /// What a stream does with an event, given the hash its client holds.
    enum Decision: Equatable { case send, skip, sendRecord }

    static func decide(_ event: GatewayEvent, holding held: ContentHash?) -> Decision {
        switch event {
        case .record(_, let hash): return hash == held ? .skip : .send
        case .changeSet(_, let base, let target):
            if base == held { return .send }
            // One the client is already past (its record came first), or a gap the record closes.
            return target == held ? .skip : .sendRecord
        }
    }

    // MARK: Errors

    /// A JSON error: `{"error": code, "message": ..., "key": ...}`.
    static func error(_ status: HTTPResponse.Status, _ code: String, _ message: String, key: String? = nil) -> Response
    {
        var w = JSONWriter()
        w.beginObject()
        w.key("error"); w.string(code)
        w.key("message"); w.string(message)
        if let key { w.key("key"); w.string(key) }
        w.endObject()
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: w.bytes + [0x0A])))
    }
}
