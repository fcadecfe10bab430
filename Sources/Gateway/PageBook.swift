public import Dispatch
public import LayoutKit
import Synchronization

/// The gateway's pages: each page's latest record (byte for byte as published on the latest-layout topic), its
/// recent change sets (for streams that resume), and the streams following it.
///
/// Streams are moved along by change sets. A latest layout that arrives ahead of the change set leading to it (the
/// two topics are read independently) waits up to the grace period for it; if none comes (its change set was lost
/// in a crash, or the page was cleared) the streams are sent the record. Memory is bounded by bytes: past the budget
/// the least recently read pages without streams are let go, and answered 404 (`evicted`) until they change again
/// (a compacted topic cannot be read by key, so reading one page back would mean reading its partition again).
public final class PageBook: Sendable {
    /// What a page read finds.
    public enum Lookup: Sendable {
        case page(record: [UInt8], hash: ContentHash)
        /// Never laid out (or cleared by a tombstone).
        case unknown
        /// Let go to stay within the byte budget; answered again once the page changes.
        case evicted
    }

    /// What a stream receives.
    public enum Item: Sendable, Equatable {
        case event(GatewayEvent)
        case heartbeat
    }

    /// One stream following a page: its queue (bounded), and whether an event did not fit.
    public final class Stream: Sendable {
        public let items: AsyncStream<Item>
        let continuation: AsyncStream<Item>.Continuation
        let overflowed = Atomic<Bool>(false)
        let id: Int

        init(id: Int, buffer: Int) {
            self.id = id
            (items, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(buffer))
        }

        /// Whether events were dropped since the last call (the stream should be sent the current record).
        public func takeOverflow() -> Bool { overflowed.exchange(false, ordering: .relaxed) }
    }

    struct Page {
        var record: [UInt8]?
        var hash: ContentHash?
        var gzip: [UInt8]?
        /// The hash streams were last brought to.
        var streamHash: ContentHash?
        /// When `record` became newer than `streamHash` (waiting for its change set).
        var pendingSince: UInt64?
        /// Recent change sets, oldest first.
        var history: [(base: ContentHash?, target: ContentHash, bytes: [UInt8])] = []
        var lastRead: UInt64 = 0

        var bytes: Int { (record?.count ?? 0) + (gzip?.count ?? 0) + history.reduce(0) { $0 + $1.bytes.count } }
    }

    struct State {
        var pages: [String: Page] = [:]
        var streams: [String: [Int: Stream]] = [:]
        var pending: Set<String> = []
        var evicted: Set<String> = []
        var bytes = 0
        var tick: UInt64 = 0
        var nextStream = 1
    }

    let settings: GatewaySettings
    let state = Mutex(State())
    /// Counts for `/metrics`.
    let evictions = Atomic<Int>(0)
    let eventsSent = Atomic<Int>(0)

    public init(settings: GatewaySettings) { self.settings = settings }

    // MARK: From the topics

    /// A latest layout (nil: a tombstone, the page is cleared).
    public func storeRecord(_ bytes: [UInt8]?, for key: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        state.withLock { s in
            guard let bytes else {
                if let old = s.pages.removeValue(forKey: key) { s.bytes -= old.bytes }
                s.pending.remove(key)
                return
            }
            s.evicted.remove(key)
            var page = s.pages[key] ?? Page()
            let before = page.bytes
            let hash = ContentHash(of: bytes)
            page.record = bytes
            page.hash = hash
            page.gzip = nil
            if page.streamHash == nil {
                page.streamHash = hash
                broadcast(.record(bytes, hash: hash), key, &s)
            } else if page.streamHash != hash {
                page.pendingSince = page.pendingSince ?? now
                s.pending.insert(key)
            } else {
                page.pendingSince = nil
                s.pending.remove(key)
            }
            s.bytes += page.bytes - before
            s.pages[key] = page
            evictIfOver(&s)
        }
    }

    /// A change set (its base and target hashes read by `ChangeSetHashes`).
    public func storeChangeSet(_ bytes: [UInt8], base: ContentHash?, target: ContentHash, for key: String) {
        state.withLock { s in
            guard var page = s.pages[key] else { return }  // a page not held: its record comes first
            let before = page.bytes
            page.history.append((base, target, bytes))
            if page.history.count > settings.historyPerPage { page.history.removeFirst() }
            if page.streamHash == base {
                page.streamHash = target
                broadcast(.changeSet(bytes, base: base, target: target), key, &s)
            } else if page.streamHash != target, let record = page.record, let hash = page.hash,
                hash != page.streamHash
            {
                // A gap (a change set lost, or one the stream passed): the record puts streams right.
                page.streamHash = hash
                broadcast(.record(record, hash: hash), key, &s)
            }
            if page.streamHash == page.hash {
                page.pendingSince = nil
                s.pending.remove(key)
            }
            s.bytes += page.bytes - before
            s.pages[key] = page
            evictIfOver(&s)
        }
    }

    /// Sends streams the records that waited longer than the grace period for their change set.
    public func flushPending(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        let grace = UInt64(max(0, settings.changeSetGraceMs)) * 1_000_000
        state.withLock { s in
            for key in s.pending {
                guard var page = s.pages[key], let since = page.pendingSince, now &- since >= grace else { continue }
                if let record = page.record, let hash = page.hash, hash != page.streamHash {
                    page.streamHash = hash
                    broadcast(.record(record, hash: hash), key, &s)
                }
                page.pendingSince = nil
                s.pages[key] = page
                s.pending.remove(key)
            }
        }
    }

    /// A heartbeat on every stream.
    public func heartbeat() {
        state.withLock { s in
            for streams in s.streams.values {
                for stream in streams.values { _ = stream.continuation.yield(.heartbeat) }
            }
        }
    }

    private func broadcast(_ event: GatewayEvent, _ key: String, _ s: inout State) {
        guard let streams = s.streams[key] else { return }
        for stream in streams.values {
            if case .dropped = stream.continuation.yield(.event(event)) {
                stream.overflowed.store(true, ordering: .relaxed)
            } else {
                eventsSent.add(1, ordering: .relaxed)
            }
        }
    }

    /// Lets the least recently read pages without streams go until the pages fit 90% of the budget.
    private func evictIfOver(_ s: inout State) {
        guard s.bytes > settings.maxBytes else { return }
        let target = settings.maxBytes / 10 * 9
        let candidates = s.pages.filter { s.streams[$0.key]?.isEmpty ?? true }.sorted {
            $0.value.lastRead < $1.value.lastRead
        }
        for (key, page) in candidates where s.bytes > target {
            s.pages.removeValue(forKey: key)
            s.pending.remove(key)
            s.bytes -= page.bytes
            if s.evicted.count >= 1_000_000 { s.evicted.removeAll() }
            s.evicted.insert(key)
            evictions.add(1, ordering: .relaxed)
        }
    }

    // MARK: For clients

    /// A page's latest record.
    public func read(_ key: String) -> Lookup {
        state.withLock { s in
            guard var page = s.pages[key], let record = page.record, let hash = page.hash else {
                return s.evicted.contains(key) ? .evicted : .unknown
            }
            s.tick += 1
            page.lastRead = s.tick
            s.pages[key] = page
            return .page(record: record, hash: hash)
        }
    }

    /// A page's latest record compressed with gzip, made once per record.
    public func gzipRecord(_ key: String, hash: ContentHash, record: [UInt8]) -> [UInt8]? {
        if let cached = state.withLock({ s in s.pages[key].flatMap { $0.hash == hash ? $0.gzip : nil } }) {
            return cached
        }
        guard let compressed = Gzip.compress(record) else { return nil }
        state.withLock { s in
            guard var page = s.pages[key], page.hash == hash, page.gzip == nil else { return }
            page.gzip = compressed
            s.bytes += compressed.count
            s.pages[key] = page
        }
        return compressed
    }

    /// A new stream of `key`: first what a client holding `lastEventID` lacks (the change sets since it when they
    /// are still held, else the current record; nothing until the page has a record), then what arrives.
    public func subscribe(_ key: String, lastEventID: ContentHash?) -> Stream {
        state.withLock { s in
            let stream = Stream(id: s.nextStream, buffer: max(1, settings.streamBuffer))
            s.nextStream += 1
            s.streams[key, default: [:]][stream.id] = stream
            guard var page = s.pages[key], let record = page.record, let hash = page.hash else { return stream }
            s.tick += 1
            page.lastRead = s.tick
            s.pages[key] = page
            let current = page.streamHash ?? hash
            if let held = lastEventID, held == current || held == hash { return stream }
            if let held = lastEventID, let chain = Self.chain(from: held, to: current, in: page.history) {
                for step in chain {
                    stream.continuation.yield(.event(.changeSet(step.bytes, base: step.base, target: step.target)))
                }
            } else {
                stream.continuation.yield(.event(.record(record, hash: hash)))
            }
            return stream
        }
    }

    /// Stops a stream.
    public func unsubscribe(_ key: String, _ stream: Stream) {
        state.withLock { s in
            s.streams[key]?.removeValue(forKey: stream.id)
            if s.streams[key]?.isEmpty == true { s.streams.removeValue(forKey: key) }
        }
        stream.continuation.finish()
    }

    /// The change sets leading from `from` to `to`, oldest first, when the history holds every step.
    static func chain(
        from: ContentHash, to: ContentHash, in history: [(base: ContentHash?, target: ContentHash, bytes: [UInt8])]
    ) -> [(base: ContentHash?, target: ContentHash, bytes: [UInt8])]? {
        guard let start = history.lastIndex(where: { $0.base == from }) else { return nil }
        var steps = [history[start]]
        var at = history[start].target
        var i = start + 1
        while at != to {
            guard i < history.count else { return nil }
            if history[i].base == at {
                steps.append(history[i])
                at = history[i].target
            }
            i += 1
        }
        return steps
    }

    /// Figures for `/metrics`.
    public var figures: (pages: Int, bytes: Int, streams: Int, evictions: Int, eventsSent: Int) {
        let (pages, bytes, streams) = state.withLock { s in
            (s.pages.count, s.bytes, s.streams.values.reduce(0) { $0 + $1.count })
        }
        return (pages, bytes, streams, evictions.load(ordering: .relaxed), eventsSent.load(ordering: .relaxed))
    }
}
