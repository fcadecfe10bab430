import ConfigReload
import Foundation
import LayoutCompiler
import LayoutDiff
import LayoutKit
import LayoutRecord
import Logging
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
        settings: OriginSettings, compilers: CompilerSlot, cache: OriginCache, group: any EventLoopGroup,
        metrics: GatewayMetrics, streams: PageBook, sink: any StreamSink, logger: Logger
    ) {
        self.cache = cache
        cacheControl =
            "public, max-age=\(settings.maxAgeSeconds), stale-while-revalidate=\(settings.staleWhileRevalidateSeconds), stale-if-error=\(settings.staleIfErrorSeconds)"
        self.streams = streams
        self.sink = sink
        self.settings = settings
        client = OriginClient(
            base: settings.base, timeout: .milliseconds(Int64(settings.timeoutMs)),
            maxResponseBytes: settings.maxResponseBytes, group: group)
        breaker = OriginBreaker(
            failures: settings.breakerFailures, cooldown: .milliseconds(settings.breakerCooldownMs))
        self.compilers = compilers
        self.metrics = metrics
        self.logger = logger
    }

    /// `Cache-Control` of a state's record.
    let cacheControl: String

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
        guard let leader else { return future }
        future.whenComplete { _ in self.flights.withLock { $0[key] = nil } }
        // All on the event loop: connecting, reading, compiling (55 µs for a 45 KB page): no thread hop between.
        guard let wait = breaker.admit() else {
            let compiler = compilers.compiler
            let current = held?.generation == compiler.generation ? held : nil
            let start = ContinuousClock.now
            client.get(state, validators: current?.validators, on: loop).whenComplete { result in
                leader.completeWith(
                    Result { try self.took(result, key, state, held: current, stale: held, compiler, since: start) })
            }
            return future
        }
        outcome("circuit-open", key)
        leader.completeWith(
            Result { try stale(held, key, failure: .circuitOpen(retryAfterMs: Int(wait / .milliseconds(1)))) })
        return future
    }

    /// What the origin's answer (or failure) makes of the state: the held copy confirmed, a new record, a held
    /// copy within stale-if-error, or the failure. `held`: the copy compiled with the config in use (else nil);
    /// `stale`: whatever copy is held.
    private func took(
        _ result: Result<OriginClient.Response, any Error>, _ key: String, _ state: NavigationState,
        held: HeldState?, stale older: HeldState?, _ compiler: CompilerSlot.Compiler,
        since start: ContinuousClock.Instant
    ) throws -> HeldState {
        let now = ContinuousClock.now
        metrics.originSeconds(now - start)
        let response: OriginClient.Response
        switch result {
        case .success(let r): response = r
        case .failure(let error):
            let failure = error as? OriginFailure ?? .reset
            breaker.record(fault: failure.isOriginFault)
            outcome(failure.outcome, key, since: start)
            return try stale(older, key, failure: failure)
        }
        breaker.record(fault: response.status >= 500)
        switch response.status {
        case 304 where held != nil:  // validators are sent only with a copy of the config in use
            outcome("not-modified", key, since: start, status: 304)
            return keep(held!.confirmed(at: now), key)
        case 200..<300:
            break
        case 404, 410:
            outcome("not-found", key, since: start, status: response.status)
            throw OriginFailure.notFound
        default:
            outcome("origin-error", key, since: start, status: response.status)
            return try stale(older, key, failure: .status(response.status))
        }
        let validators = OriginClient.Validators(
            etag: response.headers.first(name: "etag"), lastModified: response.headers.first(name: "last-modified"))
        let responseHash = ContentHash(of: response.body)
        if let held, held.responseHash == responseHash {
            outcome("fetched", key, since: start, status: response.status)
            return keep(held.confirmed(at: now), key)
        }
        let fetched = try compile(response.body, state, key, compiler, held: held, since: start)
        let fresh = HeldState(
            record: fetched.record, gzip: fetched.gzip, hash: fetched.hash, responseHash: responseHash,
            validators: validators, confirmedAt: now, generation: compiler.generation)
        if let older, older.hash != fresh.hash { publishChange(key, from: older, to: fresh) }
        return keep(fresh, key)
    }

    /// The record of `body` (the held one when the layout is the same: its hash, which streams and ETags name,
    /// stays), with its gzip when it is the held one.
    private func compile(
        _ body: [UInt8], _ state: NavigationState, _ key: String, _ compiler: CompilerSlot.Compiler, held: HeldState?,
        since start: ContinuousClock.Instant
    ) throws -> (record: [UInt8], gzip: [UInt8]?, hash: ContentHash) {
        let url = client.url(of: state)
        let source = RecordSource(
            timestampMs: Int64(Date().timeIntervalSince1970 * 1_000), key: key, origin: url)
        switch compiler.compiler.compile(body, source: source) {
        case .failure(let failure):
            outcome("not-compiled", key, since: start, status: 200, detail: failure.description)
            throw OriginFailure.notCompiled(
                code: failure.code.rawValue, message: failure.message, offset: failure.offset)
        case .success(let compiled):
            outcome("fetched", key, since: start, status: 200)
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

    /// Holds `state`, unless a page was published under its key while it was fetched (it wins; the book dropped the
    /// copy). Such a page is in the book's memory (just stored): no disk read on this path.
    private func keep(_ state: HeldState, _ key: String) -> HeldState {
        if streams.holdsInMemory(key) { return state }
        cache.store(state, for: key)
        return state
    }

    /// A held copy within stale-if-error, or the failure.
    private func stale(_ held: HeldState?, _ key: String, failure: OriginFailure) throws -> HeldState {
        if let held,
            ContinuousClock.now - held.confirmedAt
                <= .seconds(settings.maxAgeSeconds + settings.staleIfErrorSeconds)
        {
            logger.warning(
                "origin failed; answering the held copy",
                metadata: ["key": .string(key), "outcome": .string(failure.outcome)])
            return held
        }
        throw failure
    }

    /// One origin request's outcome: counted, and logged with the key (info when the state was had, else a
    /// warning).
    private func outcome(
        _ outcome: String, _ key: String, since start: ContinuousClock.Instant? = nil, status: Int? = nil,
        detail: String? = nil
    ) {
        metrics.originRequest(outcome)
        var metadata: Logger.Metadata = ["key": .string(key), "outcome": .string(outcome)]
        if let start { metadata["ms"] = .stringConvertible((ContinuousClock.now - start) / .milliseconds(1)) }
        if let status { metadata["status"] = .stringConvertible(status) }
        if let detail { metadata["failure"] = .string(detail) }
        let had = outcome == "fetched" || outcome == "not-modified"
        logger.log(
            level: had ? .info : .warning, had ? "origin state fetched" : "origin state not had", metadata: metadata)
    }
}
