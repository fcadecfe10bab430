import Foundation
import LayoutCompiler
import LayoutDiff
import LayoutKit
import LayoutRecord
import Logging
import MappingFiles
import NIOCore
import Synchronization

/// Navigation states no published page holds, answered from the origin: fetched, compiled with the compiler `serve`
/// uses (the same `CompilerSlot` type, reloaded on SIGHUP), cached within a byte budget. At most one origin request
/// per state is under way however many clients ask (they share its outcome), at most `concurrency` in all; the
/// circuit breaker fails requests at once while the origin keeps failing; a held copy is answered while fresh, while
/// it is fetched again behind the answer (stale-while-revalidate), and when the origin fails (stale-if-error).
/// A state followed by streams is fetched again every `refreshSeconds` (once, however many streams); a new layout
/// is sent to them as a change set from the one they hold.
public final class OriginStates: Sendable {
    /// What is held for a key, as of now.
    enum Lookup {
        /// Answer it; nothing to do.
        case fresh(HeldState)
        /// Answer it, and fetch it again behind the answer.
        case stale(HeldState)
        /// Fetch it first (a held copy, too old to answer first, is kept for stale-if-error).
        case miss(HeldState?)
    }

    let settings: OriginSettings
    let client: OriginClient
    let cache: OriginCache
    let breaker: OriginBreaker
    let compilers: CompilerSlot
    let metrics: GatewayMetrics
    let logger: Logger
    /// The page book's streams: who follows a state, and where its events go.
    let streams: PageBook
    let sink: any StreamSink
    /// States followed by streams, fetched again every `refreshSeconds` while they are.
    private let watched = Mutex<[String: NavigationState]>([:])
    /// The origin request under way per key: every client asking meanwhile waits on the same one.
    private let flights = Mutex<[String: EventLoopFuture<HeldState>]>([:])

    init(
        settings: OriginSettings, compilers: CompilerSlot, group: any EventLoopGroup, metrics: GatewayMetrics,
        streams: PageBook, sink: any StreamSink, logger: Logger
    ) {
        self.streams = streams
        self.sink = sink
        self.settings = settings
        client = OriginClient(
            base: settings.base, timeout: .milliseconds(Int64(settings.timeoutMs)),
            maxResponseBytes: settings.maxResponseBytes, group: group)
        cache = OriginCache(maxBytes: settings.maxBytes)
        breaker = OriginBreaker(
            failures: settings.breakerFailures, cooldown: .milliseconds(settings.breakerCooldownMs))
        self.compilers = compilers
        self.metrics = metrics
        self.logger = logger
    }

    /// `Cache-Control` of a state's record.
    var cacheControl: String {
        "public, max-age=\(settings.maxAgeSeconds), stale-while-revalidate=\(settings.staleWhileRevalidateSeconds), stale-if-error=\(settings.staleIfErrorSeconds)"
    }

    func lookup(_ key: String, now: ContinuousClock.Instant = .now) -> Lookup {
        guard let held = cache.read(key) else { return .miss(nil) }
        let age = now - held.confirmedAt
        let current = held.generation == compilers.compiler.generation
        if current, age <= .seconds(settings.maxAgeSeconds) { return .fresh(held) }
        if age <= .seconds(settings.maxAgeSeconds + settings.staleWhileRevalidateSeconds) { return .stale(held) }
        return .miss(held)
    }

    /// The state fetched and compiled (or the held copy, confirmed or within stale-if-error), through the one
    /// request under way for `key`.
    func fetch(_ key: String, _ state: NavigationState, held: HeldState?, on loop: any EventLoop)
        -> EventLoopFuture<HeldState>
    {
        let (future, leader): (EventLoopFuture<HeldState>, EventLoopPromise<HeldState>?) = flights.withLock { f in
            if let underWay = f[key] { return (underWay, nil) }
            guard f.count < settings.concurrency else {
                return (loop.makeFailedFuture(OriginFailure.busy), nil)
            }
            let promise = loop.makePromise(of: HeldState.self)
            f[key] = promise.futureResult
            return (promise.futureResult, promise)
        }
        guard let leader else {
            metrics.originAnswer("coalesced")
            return future
        }
        leader.completeWithTask { try await self.fetchNow(key, state, held: held) }
        future.whenComplete { _ in self.flights.withLock { $0[key] = nil } }
        return future
    }

    private func fetchNow(_ key: String, _ state: NavigationState, held: HeldState?) async throws -> HeldState {
        if let wait = breaker.admit() {
            metrics.originRequest("circuit-open")
            return try stale(held, key, failure: .circuitOpen(retryAfterMs: Int(wait / .milliseconds(1))))
        }
        let compiler = compilers.compiler
        let sameConfig = held?.generation == compiler.generation
        let start = ContinuousClock.now
        let response: OriginClient.Response
        do {
            response = try await client.get(state, validators: sameConfig ? held?.validators : nil)
        } catch {
            breaker.record(fault: error.isOriginFault)
            metrics.originSeconds(ContinuousClock.now - start)
            metrics.originRequest(error.outcome)
            return try stale(held, key, failure: error)
        }
        let now = ContinuousClock.now
        metrics.originSeconds(now - start)
        breaker.record(fault: response.status >= 500)
        switch response.status {
        case 304 where sameConfig && held != nil:
            metrics.originRequest("not-modified")
            return keep(held!.confirmed(at: now), key)
        case 200..<300:
            break
        case 404, 410:
            metrics.originRequest("not-found")
            try failed(key, .notFound)
        default:
            metrics.originRequest("origin-error")
            return try stale(held, key, failure: .status(response.status))
        }
        let validators = OriginClient.Validators(
            etag: response.headers.first(name: "etag"), lastModified: response.headers.first(name: "last-modified"))
        let responseHash = ContentHash(of: response.body)
        if let held, sameConfig, held.responseHash == responseHash {
            metrics.originRequest("fetched")
            return keep(held.confirmed(at: now), key)
        }
        let fetched = try compile(response.body, state, key, compiler, held: sameConfig ? held : nil)
        let fresh = HeldState(
            record: fetched.record, gzip: fetched.gzip, hash: fetched.hash, responseHash: responseHash,
            validators: validators, confirmedAt: now, generation: compiler.generation)
        if let held, held.hash != fresh.hash { publishChange(key, from: held, to: fresh) }
        return keep(fresh, key)
    }

    /// The record of `body` (the held one when the layout is the same: its hash, which streams and ETags name,
    /// stays), with its gzip when it is the held one.
    private func compile(
        _ body: [UInt8], _ state: NavigationState, _ key: String, _ compiler: CompilerSlot.Compiler, held: HeldState?
    ) throws -> (record: [UInt8], gzip: [UInt8]?, hash: ContentHash) {
        let url = client.url(of: state)
        let source = RecordSource(
            timestampMs: Int64(Date().timeIntervalSince1970 * 1_000), key: key, origin: url)
        switch compiler.compiler.compile(body, source: source) {
        case .failure(let failure):
            logger.warning(
                "origin state does not compile",
                metadata: ["key": .string(key), "url": .string(url), "failure": .string(failure.description)])
            metrics.originRequest("not-compiled")
            try failed(
                key, .notCompiled(code: failure.code.rawValue, message: failure.message, offset: failure.offset))
        case .success(let compiled):
            metrics.originRequest("fetched")
            let outline = compiled.outline
            if let held, let before = try? RecordOutline(bytes: held.record), LayoutDiffer().sameLayout(before, outline)
            {
                return (held.record, held.gzip, held.hash)
            }
            return (outline.bytes, nil, outline.hash)
        }
    }

    // MARK: Streams

    /// A stream opened on `key`: the state is followed (fetched again every `refreshSeconds` while streams are
    /// open) and fetched now unless a fresh copy is held. Its streams get the record once it is there.
    func watch(_ key: String, _ state: NavigationState, on loop: any EventLoop) {
        watched.withLock { $0[key] = state }
        switch lookup(key) {
        case .fresh: break
        case .stale(let held), .miss(let held?):
            _ = fetch(key, state, held: held, on: loop)
        case .miss(nil):
            fetch(key, state, held: nil, on: loop).whenSuccess { [sink] held in
                sink.publish(key, EventBytes(.record(held.record, at: StreamPosition(hash: held.hash, offset: nil))))
            }
        }
    }

    /// Fetches every followed state again (the ones no stream follows any more are let go); run every
    /// `refreshSeconds` by `run(on:)`.
    func refreshWatched(on loop: any EventLoop) {
        let keys = watched.withLock { w in
            w = w.filter { streams.hasStreams($0.key) }
            return w
        }
        for (key, state) in keys { _ = fetch(key, state, held: cache.read(key), on: loop) }
    }

    /// Refreshes the followed states until cancelled.
    func run(on loop: any EventLoop) async {
        while (try? await Task.sleep(for: .seconds(max(1, settings.refreshSeconds)))) != nil {
            refreshWatched(on: loop)
        }
    }

    /// A state's layout changed: its streams get the change set from the one they hold (a stream holding
    /// something else gets the record instead, as for published pages).
    private func publishChange(_ key: String, from old: HeldState, to new: HeldState) {
        guard streams.hasStreams(key), let before = try? RecordOutline(bytes: old.record),
            let after = try? RecordOutline(bytes: new.record)
        else { return }
        let changeSet = LayoutDiffer().diff(from: before, to: after, key: key)
        sink.publish(
            key,
            EventBytes(
                .changeSet(changeSet.bytes, base: old.hash, target: StreamPosition(hash: new.hash, offset: nil))))
    }

    private func keep(_ state: HeldState, _ key: String) -> HeldState {
        cache.store(state, for: key)
        return state
    }

    /// A held copy within stale-if-error, or the failure.
    private func stale(_ held: HeldState?, _ key: String, failure: OriginFailure) throws -> HeldState {
        if let held,
            ContinuousClock.now - held.confirmedAt
                <= .seconds(settings.maxAgeSeconds + settings.staleIfErrorSeconds)
        {
            metrics.originAnswer("stale")
            logger.warning(
                "origin failed; answering the held copy",
                metadata: ["key": .string(key), "outcome": .string(failure.outcome)])
            return held
        }
        try failed(key, failure)
    }

    private func failed(_ key: String, _ failure: OriginFailure) throws -> Never {
        logger.warning(
            "origin state not answered",
            metadata: ["key": .string(key), "outcome": .string(failure.outcome)])
        throw failure
    }
}
