import NIOCore
import NIOHTTP1

/// Why a navigation state could not be answered from the origin; each is named to the app, never passed through.
enum OriginFailure: Error, Sendable {
    case timedOut
    case refused
    case reset
    /// The origin answered with this status (5xx, or a 4xx other than 404/410).
    case status(Int)
    case notFound
    case tooLarge(limit: Int)
    /// The response did not compile: the compile failure's code, message and byte offset.
    case notCompiled(code: String, message: String, offset: Int?)
    /// The circuit breaker is open for this many more milliseconds.
    case circuitOpen(retryAfterMs: Int)
    /// As many origin requests as `--origin-concurrency` allows are under way.
    case busy

    /// A connect that failed: timed out or refused.
    static func connecting(_ error: any Error) -> OriginFailure {
        if case ChannelError.connectTimeout = error { return .timedOut }
        return .refused
    }

    /// Its label in `layout_gateway_origin_requests_total`.
    var outcome: String {
        switch self {
        case .timedOut: "timeout"
        case .refused, .reset: "refused"
        case .status: "origin-error"
        case .notFound: "not-found"
        case .tooLarge: "too-large"
        case .notCompiled: "not-compiled"
        case .circuitOpen: "circuit-open"
        case .busy: "busy"
        }
    }

    /// Whether it counts against the origin in the circuit breaker (the origin's health, not the state's content).
    var isOriginFault: Bool {
        switch self {
        case .timedOut, .refused, .reset: true
        case .status(let s): s >= 500
        default: false
        }
    }

    /// What the app is answered.
    func answer(key: String) -> HTTPAnswer {
        var a: HTTPAnswer
        switch self {
        case .timedOut:
            a = .error(.gatewayTimeout, "origin-timeout", "the origin did not answer in time; try again", key: key)
            a.set("retry-after", "1")
        case .refused, .reset:
            a = .error(.badGateway, "origin-unreachable", "the origin could not be reached; try again", key: key)
            a.set("retry-after", "1")
        case .status(let s):
            a = .error(.badGateway, "origin-error", "the origin answered \(s) for this state", key: key)
            if s >= 500 { a.set("retry-after", "1") }
        case .notFound:
            a = .error(.notFound, "unknown-state", "the origin has no such navigation state", key: key)
        case .tooLarge(let limit):
            a = .error(
                .badGateway, "origin-too-large", "the origin's response is larger than \(limit) bytes", key: key)
        case .notCompiled(let code, let message, let offset):
            a = HTTPAnswer.error(
                .unprocessableEntity, code,
                "the origin's response does not compile: \(message)" + (offset.map { " (byte \($0))" } ?? ""),
                key: key, offset: offset)
        case .circuitOpen(let ms):
            a = .error(
                .badGateway, "origin-circuit-open",
                "the origin failed repeatedly; the gateway asks it again after Retry-After seconds", key: key)
            a.set("retry-after", String(max(1, (ms + 999) / 1_000)))
        case .busy:
            a = .error(
                .serviceUnavailable, "origin-busy", "this gateway has as many origin requests under way as it allows",
                key: key)
            a.set("retry-after", "1")
        }
        return a
    }
}
