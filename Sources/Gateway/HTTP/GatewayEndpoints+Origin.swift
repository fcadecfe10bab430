import ConfigReload
import LayoutCompiler
import LayoutJSON
import LayoutKit
import LayoutRecord
import NIOCore
import NIOHTTP1

/// What the gateway answers beyond published pages: navigation states from the origin (`--origin`), and
/// `POST /v1/compile` (`--compile-endpoint`).
extension GatewayEndpoints {
    /// A navigation state held fresh: answered on the loop, as a published page is (nil: not held, or too old).
    func heldState(_ key: String, _ head: HTTPRequestHead, _ origin: OriginStates) -> Answer? {
        guard case .fresh(let held) = origin.lookup(key) else { return nil }
        metrics.originAnswer("cached")
        return .response(stateAnswer(held, key, head, origin))
    }

    /// A GET of a navigation state no published page holds, not held fresh: refused before any request when it
    /// could reach another host or path; a stale copy answered while it is fetched again behind the answer; else
    /// fetched first.
    func state(_ key: String, _ head: HTTPRequestHead, _ origin: OriginStates, _ cors: [(String, String)]) -> Answer {
        let state: NavigationState
        switch NavigationState.parse(key, allowedPaths: origin.settings.paths) {
        case .success(let s): state = s
        case .failure(let refusal): return .response(refusal.answer(key: key, metrics))
        }
        switch origin.lookup(key) {
        case .fresh(let held):
            metrics.originAnswer("cached")
            return .response(stateAnswer(held, key, head, origin))
        case .stale(let held):
            metrics.originAnswer("stale")
            _ = origin.fetch(key, state, held: held, on: origin.client.group.next())
            return .response(stateAnswer(held, key, head, origin))
        case .miss(let held):
            return .origin(key: key, state: state, held: held, cors: cors)
        }
    }

    /// A held state as asked for (ETag, 304, gzip), cached as the origin settings say.
    func stateAnswer(_ held: HeldState, _ key: String, _ head: HTTPRequestHead, _ origin: OriginStates) -> HTTPAnswer {
        RecordRepresentation.answer(
            held.record, hash: held.hash, head, cacheControl: origin.cacheControl, metrics, bodies: bodies
        ) {
            origin.cache.gzip(key, held)
        }
    }

    /// The answer once the origin was asked: the state, or the failure named.
    func stateAnswer(
        _ result: Result<HeldState, any Error>, key: String, _ head: HTTPRequestHead, cors: [(String, String)],
        _ origin: OriginStates
    ) -> HTTPAnswer {
        var answer: HTTPAnswer
        switch result {
        case .success(let held):
            // A copy older than max-age is the held one answered because the origin failed (stale-if-error).
            let stale = ContinuousClock.now - held.confirmedAt > .seconds(origin.settings.maxAgeSeconds)
            metrics.originAnswer(stale ? "stale" : "fetched")
            answer = stateAnswer(held, key, head, origin)
        case .failure(let error):
            metrics.originAnswer("failed")
            answer = (error as? OriginFailure ?? .reset).answer(key: key)
        }
        for (name, value) in cors { answer.set(name, value) }
        return answer
    }

    /// `POST /v1/compile` where it is served; a 405 for another method; nil where it is not served (a 404 then).
    func compileRequest(_ head: HTTPRequestHead, _ port: Port, _ cors: [(String, String)]) -> Answer? {
        let served = settings.compileEndpoint == .api || (settings.compileEndpoint == .ops && port == .ops)
        guard served, let compilers else { return nil }
        guard head.method == .POST else {
            var refused = HTTPAnswer.error(.methodNotAllowed, "method-not-allowed", "POST an assembler response")
            refused.set("allow", "POST")
            return .response(refused)
        }
        if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > settings.maxCompileBytes
        {
            return .response(tooLarge())
        }
        return .compile(maxBytes: settings.maxCompileBytes, cors: cors, compilers: compilers)
    }

    func tooLarge() -> HTTPAnswer {
        .error(
            .payloadTooLarge, CompileFailure.Code.tooLarge.rawValue,
            "the body is larger than \(settings.maxCompileBytes) bytes")
    }

    /// A posted response compiled: 200 with its record, or 422 with the failure's code and byte offset.
    func compile(_ body: [UInt8], cors: [(String, String)], _ compilers: CompilerSlot) -> HTTPAnswer {
        var answer: HTTPAnswer
        switch compilers.compiler.compiler.compile(body, source: nil) {
        case .success(let compiled):
            let record = compiled.outline.bytes
            answer = HTTPAnswer(
                .ok,
                headers: [
                    ("content-type", Wire.recordContentType), ("cache-control", "no-store"),
                    ("etag", "\"\(ContentHash(of: record))\""),
                ], body: ByteBuffer(bytes: record))
        case .failure(let failure):
            answer = .error(.unprocessableEntity, failure.code.rawValue, failure.reason, offset: failure.offset)
        }
        for (name, value) in cors { answer.set(name, value) }
        return answer
    }
}
