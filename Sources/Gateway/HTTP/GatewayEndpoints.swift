public import ConfigReload
import Foundation
import LayoutJSON
import LayoutKit
public import Logging
import NIOCore
public import NIOHTTP1
import Ops

/// What the gateway answers, on two ports:
/// - the API port: `GET /v1/layouts/{key}`: the page's latest record as published, a strong `ETag` per encoding,
///   304 for a matching `If-None-Match`, gzip when accepted; 404 with a JSON error for a page never laid out (or,
///   without a page store, let go: `evicted`); `GET /v1/layouts/{key}/changes`: server-sent events (the record, or
///   the change sets since `Last-Event-ID`, then every change set as it arrives); `OPTIONS` answers CORS preflights
///   for `--cors-origin`. Nothing else: no query strings (they would only split a CDN's cache), no ops paths;
/// - the ops port (`--http`): `/healthz`, `/readyz` (ready once the latest layouts were read to their end),
///   `/metrics`, the live page (`/?key=...`, following one key with the web client) and the same `/v1/layouts/`.
/// Keys are URL-decoded once (a `/` in a key is written `%2F`) and at most `maxKeyBytes` long.
public final class GatewayEndpoints: Sendable {
    /// Which listener a request came in on.
    public enum Port: Sendable { case api, ops }

    /// An answer, or a stream to start.
    public enum Answer: Sendable {
        case response(HTTPAnswer)
        /// A stream; `state`: a navigation state the origin is to be asked for (no published page holds it).
        case stream(key: String, from: StreamPosition?, headers: [(String, String)], state: NavigationState?)
        /// A navigation state to fetch from the origin first (`held`: a copy too old to answer first).
        case origin(key: String, state: NavigationState, held: HeldState?, cors: [(String, String)])
        /// `POST /v1/compile`: the body (at most so many bytes) is compiled once read.
        case compile(maxBytes: Int, cors: [(String, String)], compilers: CompilerSlot)
    }

    let settings: GatewaySettings
    let book: PageBook
    let status: GatewayStatus
    let metrics: GatewayMetrics
    let refusedOrigins: RefusedOrigins
    /// Navigation states from the origin (`--origin`), or nil.
    let origin: OriginStates?
    /// The compiler `POST /v1/compile` uses (the origin's), or nil.
    let compilers: CompilerSlot?
    /// Record bodies as buffers, per event loop.
    let bodies: RecordBodies
    /// The live page and its files, compiled in from `clients/web`.
    let page = EmbeddedPage(files: WebFiles.all)

    /// `logger` says which origins were refused CORS headers (none when nil).
    public init(
        settings: GatewaySettings, book: PageBook, status: GatewayStatus, metrics: GatewayMetrics,
        logger: Logger? = nil, origin: OriginStates? = nil, compilers: CompilerSlot? = nil,
        bodies: RecordBodies = RecordBodies()
    ) {
        self.bodies = bodies
        self.origin = origin
        self.compilers = compilers
        self.settings = settings
        self.book = book
        self.status = status
        self.metrics = metrics
        refusedOrigins = RefusedOrigins(logger: logger)
    }

    /// What a stream's response says to proxies: do not buffer it (nginx reads `X-Accel-Buffering`), do not
    /// transform it (no compression holding events back), do not cache it.
    static let streamHeaders: [(String, String)] = [
        ("content-type", "text/event-stream"), ("cache-control", "no-cache, no-store, no-transform"),
        ("x-accel-buffering", "no"),
    ]

    public func answer(_ head: HTTPRequestHead, on port: Port) -> Answer {
        let cors = corsHeaders(head)
        var answer = route(head, port, cors)
        if !cors.isEmpty, case .response(var response) = answer {
            for (name, value) in cors { response.set(name, value) }
            answer = .response(response)
        }
        return answer
    }

    private func route(_ head: HTTPRequestHead, _ port: Port, _ cors: [(String, String)]) -> Answer {
        let target = RequestTarget(head.uri)
        // Methods matched by case: `==` compares their names.
        if case .OPTIONS = head.method { return .response(preflight(head, cors)) }
        if target.isCompile, let answer = compileRequest(head, port, cors) { return answer }
        switch head.method {
        case .GET, .HEAD: break
        default:
            var refused = HTTPAnswer.error(.methodNotAllowed, "method-not-allowed", "use GET or HEAD")
            refused.set("allow", "GET, HEAD, OPTIONS")
            return .response(refused)
        }
        if port == .ops, let answer = opsAnswer(String(target.path)) { return .response(answer) }
        guard let layouts = target.layouts else {
            return .response(
                .error(
                    .notFound, "not-found",
                    port == .api
                        ? "the paths are /v1/layouts/{key} and /v1/layouts/{key}/changes (probes and /metrics are on the ops port, --http)"
                        : "no such path"))
        }
        if target.hasQuery && port == .api {
            return .response(
                .error(
                    .badRequest, "query-not-allowed",
                    "the gateway's URLs take no query string (a CDN would cache each variant apart); drop it"))
        }
        guard case .page(let rawKey, let stream) = layouts else {
            return .response(
                .error(.notFound, "not-found", "paths are /v1/layouts/{key} and /v1/layouts/{key}/changes"))
        }
        // Until the latest layouts are read to their end, what is held may be older than what was published: a
        // client would be sent a page going back in time.
        if status.notReady != nil {
            // Apps are told what they can act on; why is the operator's, on /readyz and in the log.
            var response = HTTPAnswer.error(
                .serviceUnavailable, "not-ready",
                "the gateway is starting and has not read every page yet; try again after Retry-After seconds")
            response.set("retry-after", "1")
            return .response(response)
        }
        let key: String
        switch RequestKey.decode(rawKey, maxBytes: settings.maxKeyBytes) {
        case .success(let k): key = k
        case .failure(let problem): return .response(.error(problem.status, problem.code, problem.message))
        }
        if stream {
            var from: StreamPosition?
            if let text = head.headers.first(name: "last-event-id")?.trimmingCharacters(in: .whitespaces), !text.isEmpty
            {
                guard let position = StreamPosition(parsing: text) else {
                    return .response(
                        .error(
                            .badRequest, "bad-last-event-id",
                            "Last-Event-ID must be an event id the gateway sent (HASH or HASH@OFFSET)", key: key))
                }
                from = position
            }
            if head.isHEAD {
                return .response(HTTPAnswer(.ok, headers: Self.streamHeaders, body: ByteBuffer()))
            }
            var state: NavigationState?
            if let origin, NavigationState.isState(key), case .unknown = book.read(key) {
                switch NavigationState.parse(key, allowedPaths: origin.settings.paths) {
                case .success(let s): state = s
                case .failure(let refusal): return .response(refusal.answer(key: key, metrics))
                }
            }
            return .stream(key: key, from: from, headers: Self.streamHeaders + cors, state: state)
        }
        // A state held from the origin first: no published page has its key (one published drops it).
        if let origin, NavigationState.isState(key), let answer = heldState(key, head, origin) { return answer }
        let lookup = book.read(key)
        if case .unknown = lookup, let origin, NavigationState.isState(key) {
            return state(key, head, origin, cors)
        }
        return .response(record(lookup, key, head))
    }

    /// The ops port's own paths: probes, metrics, the live page's files; nil for any other.
    private func opsAnswer(_ path: String) -> HTTPAnswer? {
        if let answer = OpsPaths.answer(path, probes: status, metrics: { metrics.render(book, status, origin) }) {
            return HTTPAnswer(
                HTTPResponseStatus(statusCode: answer.status),
                headers: [("content-type", answer.contentType), ("cache-control", "no-store")],
                body: ByteBuffer(bytes: answer.body))
        }
        guard let file = page.file(at: path) else { return nil }
        return HTTPAnswer(
            .ok,
            headers: [
                ("content-type", file.type), ("cache-control", "no-cache"),
                ("content-security-policy", EmbeddedPage.securityPolicy),
            ], body: file.body)
    }

    // MARK: A record

    func record(_ lookup: PageBook.Lookup, _ key: String, _ head: HTTPRequestHead) -> HTTPAnswer {
        let (record, at): ([UInt8], StreamPosition)
        switch lookup {
        case .page(let r, let a): (record, at) = (r, a)
        case .unknown: return .error(.notFound, "unknown-page", "no layout for this key", key: key)
        case .evicted:
            return .error(
                .notFound, "evicted",
                "this page was let go to stay within the gateway's memory (it runs without a page store: --page-store off or unusable); it is served again once it changes",
                key: key)
        }
        return RecordRepresentation.answer(
            record, hash: at.hash, head, cacheControl: RecordRepresentation.publishedCacheControl, metrics,
            bodies: bodies
        ) {
            book.gzipRecord(key, hash: at.hash, record: record)
        }
    }

    // MARK: CORS

    /// The CORS headers for a request from an allowed `Origin` (`--cors-origin`), else none.
    func corsHeaders(_ head: HTTPRequestHead) -> [(String, String)] {
        guard !settings.corsOrigins.isEmpty, let origin = head.headers.first(name: "origin") else { return [] }
        if settings.corsOrigins.contains("*") {
            return [("access-control-allow-origin", "*"), ("access-control-expose-headers", "ETag")]
        }
        guard settings.corsOrigins.contains(origin) else {
            refusedOrigins.refused(origin, allowed: settings.corsOrigins)
            return []
        }
        return [
            ("access-control-allow-origin", origin), ("vary", "Origin, Accept-Encoding"),
            ("access-control-expose-headers", "ETag"),
        ]
    }

    /// A preflight: 204, with what may be asked when the origin is allowed.
    func preflight(_ head: HTTPRequestHead, _ cors: [(String, String)]) -> HTTPAnswer {
        var answer = HTTPAnswer(.noContent, headers: [("allow", "GET, HEAD, OPTIONS")])
        if !cors.isEmpty {
            answer.headers += [
                ("access-control-allow-methods", "GET, HEAD"),
                ("access-control-allow-headers", "Last-Event-ID, If-None-Match, Cache-Control, Accept"),
                ("access-control-max-age", "86400"),
            ]
        }
        return answer
    }
}
