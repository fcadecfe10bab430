public import LayoutKit
public import PageStore
import Synchronization

/// The gateway's pages: each page's latest record (byte for byte as published on the latest-layout topic), its
/// recent change sets (for streams that resume), and the streams following it.
///
/// Streams are moved along by change sets. A latest layout that arrives ahead of the change set leading to it (the
/// two topics are read independently) waits up to the grace period for it; if none comes (its change set was lost
/// in a crash, or the page was cleared) the streams are sent the record.
///
/// Every page is in the page store on disk (`disk`), with the offsets of the two topics it is consistent with; memory
/// holds a bounded cache of them (the pages with streams, the pages changed since the last `flush`, and the most
/// recently read), so a page not in memory is read from disk. Without a disk store, pages past the budget are let go
/// and answered 404 (`evicted`) until they change again.
public final class PageBook: Sendable {

    let settings: GatewaySettings
    /// Where events for a page's streams go (the event loops that hold them).
    let sink: any StreamSink
    let state = Mutex(State())
    /// Counts for `/metrics`.
    let evictions = Atomic<Int>(0)
    let memoryHits = Atomic<Int>(0)
    let diskReads = Atomic<Int>(0)
    let opened = Atomic<Int>(0)

    /// Navigation states held from the origin: a page published under the same key replaces its copy there.
    let originStates: OriginCache?

    /// `originStates`: the states `gateway --origin` holds (nil: none).
    public init(
        settings: GatewaySettings, sink: any StreamSink, disk: PageStore? = nil, originStates: OriginCache? = nil
    ) {
        self.settings = settings
        self.sink = sink
        self.originStates = originStates
        state.withLock { $0.disk = disk }
    }

    /// Keeps every page in `disk` from now on (the feed opens it once it knows the cluster).
    public func attach(_ disk: PageStore) { state.withLock { $0.disk = disk } }

    /// The latest layouts are read into the page store from here until `caughtUp()`. Into an empty store (no
    /// checkpoint) that is a bulk load (`PageStore.beginBulkLoad`): flushes skip the write-ahead log, and a record
    /// replaces a page without reading the store's copy, which can only be an earlier record of this reading.
    public func catchUp(emptyStore: Bool) { state.withLock { $0.beginCatchUp(emptyStore: emptyStore) } }

    /// The catch-up ended (after its last `flush`): what it wrote is made durable, and flushes are logged again.
    /// Returns the failure, if any (the store then takes no more writes, as after a failed `flush`).
    @discardableResult
    public func caughtUp() -> String? {
        guard let disk = state.withLock({ $0.endCatchUp() }) else { return nil }
        do throws(PageStoreError) {
            try disk.endBulkLoad()  // outside the lock: it waits for RocksDB's flush
            return nil
        } catch {
            return state.withLock { $0.writesFailed(error) }
        }
    }

    /// The page store, if one is attached.
    public var disk: PageStore? { state.withLock { $0.disk } }

    /// Why writing to the page store failed (it takes no more writes), or nil.
    public var writeFailure: String? { state.withLock { $0.writeFailure } }

    /// Writes what is unwritten and closes the page store (the feed does, when it stops): RocksDB must be closed
    /// before the process exits, or its threads meet its static destructors (`pthread lock: Invalid argument`).
    public func closeStore() {
        flush()
        state.withLock { $0.detachStore() }?.close()  // RocksDB writes its memtables on closing (unlogged ones too)
    }

    // MARK: From the topics

    /// A latest layout (nil: a tombstone, the page is cleared) made from the input at `position`, that input written
    /// at `sourceTimeMs`.
    public func storeRecord(
        _ bytes: [UInt8]?, for key: String, position: Int64? = nil, sourceTimeMs: Int64? = nil,
        now: ContinuousClock.Instant = .now
    ) {
        originStates?.drop(key)  // a published page wins over a navigation state of the same key
        withPage(key, toReplace: true) { s, held in
            guard let bytes else { return s.clear(key) }
            s.evicted.remove(key)
            s.cleared.remove(key)
            var page = held ?? Page()
            let before = held?.bytes ?? 0
            let hash = page.take(record: bytes, position: position)
            let at = StreamPosition(hash: hash, offset: position)
            if page.streamAt == nil {
                page.streamAt = at
                broadcast(.record(bytes, at: at), key, sourceTimeMs, &s)
            } else if page.streamAt?.hash != hash {
                page.pendingSince = page.pendingSince ?? now
                s.pending.insert(key)
            } else {
                page.pendingSince = nil
                s.pending.remove(key)
            }
            s.store(page, for: key, replacing: before)
            evictIfOver(&s)
        }
    }

    /// A change set (its base and target read by `ChangeSetHashes`), its input written at `sourceTimeMs`.
    public func storeChangeSet(
        _ bytes: [UInt8], base: ContentHash?, target: StreamPosition, for key: String, sourceTimeMs: Int64? = nil
    ) {
        withPage(key) { s, held in
            var page = held ?? Page()
            let before = held?.bytes ?? 0
            // A change set published again (its worker died before the commit; its target names its input, so only
            // a repeat has the same bytes) is a step the page already took.
            if !page.history.contains(where: { $0.bytes == bytes }) {
                page.history.append(StoredChange(base: base, target: target.hash, bytes: bytes))
                page.history = ChangeHistory.keep(page.history, recordBytes: page.record?.count ?? 0)
            }
            // The topics are read apart: a change set can come before its page's first record. It is kept for the
            // clients that resume from it; streams get the record when it comes.
            if let record = page.record {
                if page.streamAt?.hash == base {
                    page.streamAt = target
                    broadcast(.changeSet(bytes, base: base, target: target), key, sourceTimeMs, &s)
                } else if page.streamAt?.hash != target.hash, let at = page.at, at.hash != page.streamAt?.hash {
                    // A gap (a change set lost, or one the stream passed): the record puts streams right.
                    page.streamAt = at
                    broadcast(.record(record, at: at), key, sourceTimeMs, &s)
                }
                if page.streamAt?.hash == page.hash {
                    page.pendingSince = nil
                    s.pending.remove(key)
                }
            }
            s.store(page, for: key, replacing: before)
            evictIfOver(&s)
        }
    }

    /// Notes that the pages in memory have taken in every message of `topic`'s `partition` before `offset`: the
    /// checkpoint the next `flush` writes with them.
    public func reached(_ topic: String, partition: Int32, offset: Int64) {
        state.withLock { $0.reached(topic, partition: partition, offset: offset) }
    }

    /// Writes the pages changed since the last flush, and the checkpoints they reach, to the page store in one atomic
    /// write; they can be let go from memory afterwards. A failed write is the last (`PageStore.write`): from then on
    /// changed pages stay in memory (never let go) until a restart. Returns the failure, if any.
    @discardableResult
    public func flush() -> String? {
        state.withLock { s -> String? in
            let failure = s.writeUnwritten()
            if failure == nil { evictIfOver(&s) }
            return failure
        }
    }

    /// Pages changed in memory and not written to disk yet.
    public var unflushed: Int { state.withLock { $0.dirty.count + $0.cleared.count } }

    /// Whether enough waits for the disk that the next `flush` should not wait for its period
    /// (`PageStore.Batch.isFull`).
    public var flushIsDue: Bool { state.withLock { $0.flushIsDue } }

    /// Sends streams the records that waited longer than the grace period for their change set.
    public func flushPending(now: ContinuousClock.Instant = .now) {
        let grace = Duration.milliseconds(max(0, settings.changeSetGraceMs))
        state.withLock { s in
            for (key, record, at) in s.endWaits(olderThan: grace, now: now) {
                broadcast(.record(record, at: at), key, nil, &s)
            }
        }
    }

    /// Hands `event` to the page's streams, if it has any: its bytes are made here once, for all of them.
    private func broadcast(_ event: GatewayEvent, _ key: String, _ sourceTimeMs: Int64?, _ s: inout State) {
        guard s.streams[key, default: 0] > 0 else { return }
        sink.publish(key, EventBytes(event, sourceTimeMs: sourceTimeMs))
    }

    /// Lets the least recently read pages go until the pages fit 90% of the budget (`State.evict`).
    func evictIfOver(_ s: inout State) {
        let n = s.evict(over: settings.maxBytes)
        if n > 0 { evictions.add(n, ordering: .relaxed) }
    }

    // MARK: The page store

    /// What a look before taking the lock found: the page in memory, or (read outside the lock) what the page store
    /// holds for it.
    private enum Found {
        case inMemory
        case onDisk(Page?)
    }

    private func look(_ key: String, toReplace: Bool) -> Found {
        let (disk, filling) = state.withLock { s in (s.pages[key] == nil ? s.disk : nil, s.fillingEmptyStore) }
        guard let disk else { return .inMemory }
        // Filling an empty store, a page on disk is a record this run wrote (no change sets; streams keep pages).
        if toReplace && filling { return .onDisk(nil) }
        diskReads.add(1, ordering: .relaxed)
        guard let stored = try? disk.page(PageKey(key, in: .whole)), stored.hasContent else { return .onDisk(nil) }
        return .onDisk(Page(record: stored.record, position: stored.position, history: stored.history))
    }

    /// Runs `body` under the lock with `key`'s page: the one in memory, else the page store's (then kept in memory,
    /// as recently used), nil when neither has it. A page let go between the look and the lock is looked up again.
    func withPage<R>(_ key: String, toReplace: Bool = false, _ body: (inout State, Page?) -> R) -> R {
        while true {
            let found = look(key, toReplace: toReplace)
            let result: R? = state.withLock { s in
                if let page = s.pages[key] {
                    memoryHits.add(1, ordering: .relaxed)
                    return body(&s, page)
                }
                switch found {
                case .inMemory where s.disk != nil: return nil  // let go meanwhile: look on disk
                case .inMemory: return body(&s, nil)
                case .onDisk(let page):
                    guard let page, !s.cleared.contains(key) else { return body(&s, nil) }
                    s.pages[key] = page
                    s.bytes += page.bytes
                    return body(&s, page)
                }
            }
            if let result { return result }
        }
    }

    // MARK: For clients

    /// A new stream of `key` from a client at `from` (its `Last-Event-ID`, nil for a new client): what it lacks
    /// (the change sets since `from` when they are still held and smaller than the record, else the current record;
    /// nothing when it is current, when this gateway is behind it, or until the page has a record), and the cursor
    /// the stream goes on with. Counted as one of the page's streams until `unsubscribe`; nil, not counted, when
    /// `limit` streams are followed already (checked where counted: loops admitting at once never pass it).
    public func subscribe(_ key: String, from: StreamPosition?, limit: Int = .max) -> Opening? {
        withPage(key) { s, held -> Opening? in
            guard s.streamTotal < limit else { return nil }
            opened.add(1, ordering: .relaxed)
            s.streams[key, default: 0] += 1
            s.streamTotal += 1
            let unchanged = Opening(catchUp: [], cursor: StreamCursor(held: from?.hash, floor: from?.offset))
            guard var page = held, let record = page.record, let at = page.at else { return unchanged }
            s.tick += 1
            page.lastRead = s.tick
            defer { s.pages[key] = page }
            let current = page.streamAt ?? at
            func recordEvent() -> EventBytes {
                if let made = page.recordEvent { return made }
                let made = EventBytes(.record(record, at: at))
                page.recordEvent = made
                s.bytes += made.plain.readableBytes * 2
                return made
            }
            guard let from else { return Opening(catchUp: [recordEvent()], cursor: StreamCursor(at: at)) }
            // Current: the client holds what streams were brought to, or the record that waits for its change set
            // (not a record the streams are past: a change set that came before its record moved them on).
            if from.hash == current.hash || (from.hash == at.hash && page.pendingSince != nil) { return unchanged }
            if let chain = ChangeHistory.chain(from: from.hash, to: current.hash, in: page.history),
                chain.reduce(0, { $0 + $1.bytes.count }) <= record.count
            {
                let steps: [EventBytes] = chain.map { step in
                    let target = step.target == current.hash ? current : StreamPosition(hash: step.target, offset: nil)
                    return EventBytes(.changeSet(step.bytes, base: step.base, target: target))
                }
                return Opening(catchUp: steps, cursor: StreamCursor(at: current, floor: from.offset))
            }
            // A client ahead of this gateway (it came from a replica that had read further): nothing older.
            if let mine = at.offset, let theirs = from.offset, mine < theirs { return unchanged }
            return Opening(catchUp: [recordEvent()], cursor: StreamCursor(at: at, floor: from.offset))
        }
    }

    /// Stops counting a stream of `key`.
    public func unsubscribe(_ key: String) { state.withLock { $0.unsubscribe(key) } }

}
