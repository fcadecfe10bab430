import LayoutKit
import PageStore

extension PageBook {
    /// Everything the book holds, under its lock: the pages in memory, the streams per page, what is not on disk
    /// yet and the checkpoints it reaches.
    struct State {
        var pages: [String: Page] = [:]
        /// Streams per page key (the streams themselves belong to their event loops: `StreamHub`).
        var streams: [String: Int] = [:]
        var streamTotal = 0
        var pending: Set<String> = []
        var evicted: Set<String> = []
        /// Pages changed in memory since the last flush to disk (never let go before it), nil: cleared.
        var dirty: Set<String> = []
        var cleared: Set<String> = []
        /// The next offset per topic partition that the pages in memory have taken in.
        var checkpoints: [String: (topic: String, partition: Int32, offset: Int64)] = [:]
        var bytes = 0
        var tick: UInt64 = 0
        var writeFailure: String?
        /// The page store (nil: memory only, or not opened yet).
        var disk: PageStore?
        /// Bytes of the pages in `dirty`, as stored (a page stored twice counts twice).
        var dirtyBytes = 0
        /// The latest layouts are read into a store that had no page, as a bulk load (`PageBook.catchUp`).
        var fillingEmptyStore = false

        /// Keeps `page` for `key` in place of one of `before` bytes; with a page store it is written at the next flush.
        mutating func store(_ page: Page, for key: String, replacing before: Int) {
            bytes += page.bytes - before
            tick += 1
            var page = page
            page.lastStored = tick
            pages[key] = page
            if disk != nil {
                dirty.insert(key)
                dirtyBytes += page.bytes
            }
        }

        /// A tombstone cleared `key`: the page goes, and with a page store it is deleted at the next flush.
        mutating func clear(_ key: String) {
            if let old = pages.removeValue(forKey: key) { bytes -= old.bytes }
            pending.remove(key)
            dirty.remove(key)
            if disk != nil { cleared.insert(key) }
        }

        /// The pages in memory have taken in `topic`'s `partition` before `offset`: the checkpoint the next flush
        /// writes with them (with a page store).
        mutating func reached(_ topic: String, partition: Int32, offset: Int64) {
            guard disk != nil else { return }
            let key = "\(partition)|" + topic
            if (checkpoints[key]?.offset ?? -1) < offset { checkpoints[key] = (topic, partition, offset) }
        }

        /// The gzip of `key`'s record made before, when the page in memory is still the record hashing to `hash`.
        func gzip(of key: String, hash: ContentHash) -> [UInt8]? {
            pages[key].flatMap { $0.hash == hash ? $0.gzip : nil }
        }

        /// Keeps the gzip of `key`'s record, when the page in memory is still that record's.
        mutating func keep(gzip compressed: [UInt8], for key: String, hash: ContentHash) {
            guard var page = pages[key], page.hash == hash, page.gzip == nil else { return }
            page.gzip = compressed
            bytes += compressed.count
            pages[key] = page
        }

        /// One stream of `key` fewer.
        mutating func unsubscribe(_ key: String) {
            guard let n = streams[key] else { return }
            streams[key] = n > 1 ? n - 1 : nil
            streamTotal -= 1
        }

        /// Lets the least recently read pages go (among those read as long ago, the least recently stored first) until
        /// the pages fit 90% of `maxBytes`: never one with streams or with changes not on disk yet. Without a page
        /// store a page let go is remembered as `evicted`. Returns how many.
        ///
        /// Only keys and ticks are gathered and sorted (sorting the pages themselves copied each page several times:
        /// most of a cold start's time). Every store takes a tick of its own, so pages never read go by age, not in
        /// the table's order: letting a run of neighbouring buckets go would leave the rest of the table crowded, and
        /// every lookup's probe long.
        mutating func evict(over maxBytes: Int) -> Int {
            guard bytes > maxBytes else { return 0 }
            let target = maxBytes / 10 * 9
            var candidates: [(read: UInt64, stored: UInt64, key: String)] = []
            candidates.reserveCapacity(pages.count)
            for i in pages.indices {
                let key = pages.keys[i]
                guard streams[key] == nil && !dirty.contains(key) else { continue }
                let ticks = pages.values[i].ticks
                candidates.append((ticks.read, ticks.stored, key))
            }
            candidates.sort { ($0.read, $0.stored) < ($1.read, $1.stored) }
            var n = 0
            for (_, _, key) in candidates {
                guard bytes > target else { break }
                guard let page = pages.removeValue(forKey: key) else { continue }
                pending.remove(key)
                bytes -= page.bytes
                if disk == nil {
                    if evicted.count >= 1_000_000 { evicted.removeAll() }
                    evicted.insert(key)
                }
                n += 1
            }
            return n
        }

        /// What the next flush writes: the pages changed and cleared, and the checkpoints they reach; nil: nothing.
        var unwritten: PageStore.Batch? {
            guard !dirty.isEmpty || !cleared.isEmpty || !checkpoints.isEmpty else { return nil }
            var batch = PageStore.Batch()
            for key in dirty {
                if let page = pages[key] { batch.pages.append((PageKey(key, in: .whole), page.stored)) }
            }
            for key in cleared { batch.pages.append((PageKey(key, in: .whole), nil)) }
            for c in checkpoints.values { batch.checkpoints.append(c) }
            return batch
        }

        /// Writes `unwritten` to the page store in one atomic write (unlogged while catching up); returns the
        /// failure, if any: from then on it takes no more, and the checkpoints stay where they are.
        mutating func writeUnwritten() -> String? {
            guard let disk else { return nil }
            if let writeFailure {
                checkpoints.removeAll()
                return writeFailure
            }
            guard let batch = unwritten else { return nil }
            do {
                try disk.write(batch, logged: !fillingEmptyStore)
            } catch {
                return writesFailed(error)
            }
            written()
            return nil
        }

        /// The page store failed to write (it takes no more writes): what the book says from now on.
        mutating func writesFailed(_ error: PageStoreError) -> String {
            let failure = "\(error)"
            writeFailure = failure
            return failure
        }

        /// Starts a catch-up (`PageBook.catchUp`).
        mutating func beginCatchUp(emptyStore: Bool) {
            guard let disk, emptyStore else { return }
            disk.beginBulkLoad()
            fillingEmptyStore = true
        }

        /// Ends it; returns the store whose bulk load is to end, unless writing to it failed already.
        mutating func endCatchUp() -> PageStore? {
            defer { fillingEmptyStore = false }
            return fillingEmptyStore && writeFailure == nil ? disk : nil
        }

        /// Lets the page store go (it is to be closed).
        mutating func detachStore() -> PageStore? {
            fillingEmptyStore = false
            return disk.take()
        }

        /// `key`'s record when its page is in memory, read where it is held (not copied out of the table) and
        /// marked read; nil when it is not in memory or has no record.
        mutating func readInMemory(_ key: String) -> Lookup? {
            guard let i = pages.index(forKey: key) else { return nil }
            tick += 1
            return Self.read(&pages.values[i], tick: tick)
        }

        private static func read(_ page: inout Page, tick: UInt64) -> Lookup? {
            guard let record = page.record, let at = page.at else { return nil }
            page.lastRead = tick
            return .page(record: record, at: at)
        }

        /// `PageBook.flushIsDue`.
        var flushIsDue: Bool { PageStore.Batch.isFull(pages: dirty.count + cleared.count, bytes: dirtyBytes) }

        /// Pages whose record waited `grace` or longer for its change set stop waiting; returns those whose streams
        /// are to be sent the record instead.
        mutating func endWaits(olderThan grace: Duration, now: ContinuousClock.Instant)
            -> [(key: String, record: [UInt8], at: StreamPosition)]
        {
            var records: [(key: String, record: [UInt8], at: StreamPosition)] = []
            for key in pending {
                guard var page = pages[key], let since = page.pendingSince, now - since >= grace else { continue }
                if let record = page.record, let at = page.at, at.hash != page.streamAt?.hash {
                    page.streamAt = at
                    records.append((key, record, at))
                }
                page.pendingSince = nil
                pages[key] = page
                pending.remove(key)
            }
            return records
        }

        /// `unwritten` is on disk: those pages may be let go from memory.
        mutating func written() {
            writeFailure = nil
            dirty.removeAll(keepingCapacity: true)
            dirtyBytes = 0
            cleared.removeAll(keepingCapacity: true)
            checkpoints.removeAll(keepingCapacity: true)
        }
    }
}
