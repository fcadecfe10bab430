import Foundation
import Synchronization

/// The persistent page store `serve` and `gateway` share: per page key its latest record, position and recent change
/// sets (`StoredPage`), and per topic partition the checkpoint up to which the store holds what the topic holds,
/// written atomically with the pages. It lives in a directory of its own (RocksDB: docs/design.md says why), is a
/// cache of the topics (a store that is missing, from another cluster or topic, or corrupt is rebuilt from them) and
/// bounds nothing by memory: what its owners hold in memory is a cache in front of it.
public final class PageStore: Sendable {
    /// Which set of pages a page belongs to: the worker keeps each input partition's pages apart (its checkpoints
    /// and rebuilds are per input partition), the gateway keeps one set.
    public enum Scope: Hashable, Sendable {
        /// The pages of one input partition.
        case partition(topic: String, partition: Int32)
        /// One set for every page (the gateway's).
        case whole
    }

    /// How the store was found when it was opened.
    public enum Opening: Sendable, Equatable {
        /// There was none: it is new and empty.
        case created
        /// The store of an earlier run, with its checkpoints.
        case reopened
        /// There was one that could not be used (why), so it was deleted and starts empty.
        case rebuilt(reason: String)
    }

    /// What changes in one atomic write: pages stored or deleted (nil), checkpoints moved.
    public struct Batch: Sendable {
        public var pages: [(key: PageKey, page: StoredPage?)] = []
        public var checkpoints: [(topic: String, partition: Int32, offset: Int64)] = []

        public init() {}

        public var isEmpty: Bool { pages.isEmpty && checkpoints.isEmpty }

        /// Whether a writer that gathers pages (a catch-up, a rebuild, the gateway's dirty pages) should write
        /// what it holds: at 512 pages or 4 MiB of page bytes. The bytes bound keeps large pages from being
        /// held several times over while written (512 pages of 45 KB are 24 MiB, held as pages, batch and
        /// memtable); the count bound keeps small pages' batches short.
        public static func isFull(pages: Int, bytes: Int) -> Bool { pages >= 512 || bytes >= 4 << 20 }
    }

    /// The store's directory.
    public let path: String
    private let database: Mutex<RocksDatabase?>
    private let unreadableCount = Atomic<Int>(0)
    private let bulkLoads = Mutex(BulkLoads())

    /// Bulk loads under way and what they changed: blob collection is turned off, and the memtables flushed at the
    /// end, only once a load wrote (RocksDB writes and syncs an options file on every change of its options: a
    /// restart that reads nothing should not pay for it).
    private struct BulkLoads {
        var underWay = 0
        var collectionOff = false
        var unlogged = false
    }

    private init(path: String, database: RocksDatabase) {
        self.path = path
        self.database = Mutex(database)
    }

    /// Opens the store in `directory` (created when missing) for the topics and cluster `identity` names; a store
    /// made for another identity, or one RocksDB finds corrupt, is deleted and made anew (`Opening` says why). A nil
    /// identity takes the store as it is (tools and tests that inspect one). `blockCacheBytes` bounds RocksDB's own
    /// cache. Throws when the directory cannot be used at all (not writable, held by another process).
    public static func open(directory: String, identity: String?, blockCacheBytes: Int = 8 << 20)
        throws(PageStoreError) -> (store: PageStore, opening: Opening)
    {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PageStoreError(path: directory, operation: "create the directory", message: "\(error)")
        }
        var rebuilt: String?
        var database: RocksDatabase
        do {
            database = try RocksDatabase(path: directory, blockCacheBytes: blockCacheBytes)
        } catch  where error.message.contains("Corruption") {
            rebuilt = "corrupt (\(error.message))"
            try RocksDatabase.destroy(path: directory)
            database = try RocksDatabase(path: directory, blockCacheBytes: blockCacheBytes)
        }
        let stored = try database.get(PageStoreKeys.identityKey).map { String(decoding: $0, as: UTF8.self) }
        guard let identity else {
            return (PageStore(path: directory, database: database), stored == nil ? .created : .reopened)
        }
        if let stored, stored != identity {
            rebuilt = "made for \(stored), not \(identity)"
            database = try Self.recreate(database, directory, blockCacheBytes)
        } else if stored == nil, rebuilt == nil, try database.hasAnyKey() {
            rebuilt = "holds data but no identity"
            database = try Self.recreate(database, directory, blockCacheBytes)
        }
        let opening: Opening = rebuilt.map { .rebuilt(reason: $0) } ?? (stored == nil ? .created : .reopened)
        if stored != identity { try database.write([(PageStoreKeys.identityKey, Array(identity.utf8))]) }
        return (PageStore(path: directory, database: database), opening)
    }

    private static func recreate(_ old: RocksDatabase, _ directory: String, _ cacheBytes: Int)
        throws(PageStoreError) -> RocksDatabase
    {
        old.close()  // before its files are deleted
        try RocksDatabase.destroy(path: directory)
        return try RocksDatabase(path: directory, blockCacheBytes: cacheBytes)
    }

    /// Closes the store (reads and writes after it fail); it also closes when the last reference goes.
    public func close() { database.withLock { $0 = nil } }

    func db() throws(PageStoreError) -> RocksDatabase {
        guard let db = database.withLock({ $0 }) else {
            throw PageStoreError(path: path, operation: "use", message: "the store is closed")
        }
        return db
    }

    // MARK: Pages

    /// The page stored under `key`; nil when there is none (or its bytes cannot be read: counted in `unreadable`,
    /// and the page is taken as unknown).
    public func page(_ key: PageKey) throws(PageStoreError) -> StoredPage? {
        guard let bytes = try db().get(PageStoreKeys.pageKey(key)) else { return nil }
        guard let page = StoredPage(encoded: bytes) else {
            unreadableCount.add(1, ordering: .relaxed)
            return nil
        }
        return page
    }

    /// Writes `batch` atomically: its pages and checkpoints are stored together or not at all. `logged: false` (a
    /// bulk load's batches) skips the write-ahead log: such a batch is durable once the load ends, and a crash before
    /// loses it whole, pages and checkpoints together, so what it held is read again from the topic. Outside a bulk
    /// load nothing would make an unlogged batch durable, so it is written logged.
    public func write(_ batch: Batch, logged asked: Bool = true) throws(PageStoreError) {
        guard !batch.isEmpty else { return }
        var writes: [(key: [UInt8], value: [UInt8]?)] = []
        writes.reserveCapacity(batch.pages.count + batch.checkpoints.count)
        for p in batch.pages { writes.append((PageStoreKeys.pageKey(p.key), p.page?.encoded)) }
        for c in batch.checkpoints {
            var value: [UInt8] = []
            value.appendLittleEndian(UInt64(bitPattern: c.offset))
            writes.append((PageStoreKeys.checkpointKey(c.topic, c.partition), value))
        }
        let db = try db()
        var logged = asked
        if !asked {
            logged = try bulkLoads.withLock { (loads: inout BulkLoads) throws(PageStoreError) -> Bool in
                guard loads.underWay > 0 else { return true }
                loads.unlogged = true
                if !loads.collectionOff {
                    try db.collectBlobGarbage(false)
                    loads.collectionOff = true
                }
                return false
            }
        }
        try db.write(writes, logged: logged)
    }

    /// Starts a bulk load: a catch-up that reads a topic into the store, its batches written unlogged
    /// (`write(_:logged:)`). From its first such batch until the last load under way ends, the values replaced in
    /// blob files are not collected (a load replaces few, and collecting would copy the others again).
    public func beginBulkLoad() {
        bulkLoads.withLock { $0.underWay += 1 }
    }

    /// Ends a bulk load: the memtables are written to disk, so every batch written so far is durable from here on.
    public func endBulkLoad() throws(PageStoreError) {
        let db = try db()
        try bulkLoads.withLock { (loads: inout BulkLoads) throws(PageStoreError) in
            loads.underWay = max(0, loads.underWay - 1)
            if loads.unlogged {
                try db.flush()
                loads.unlogged = false
            }
            if loads.underWay == 0 && loads.collectionOff {
                try db.collectBlobGarbage(true)
                loads.collectionOff = false
            }
        }
    }

    /// Deletes every page of `scope` and the checkpoint of `topic`'s `partition` (a rebuild from the topic follows).
    public func removeScope(_ scope: Scope, checkpoint topic: String, partition: Int32) throws(PageStoreError) {
        let db = try db()
        let prefix = PageStoreKeys.scopePrefix(scope)
        try db.deleteRange(from: prefix, to: PageStoreKeys.successor(of: prefix))
        try db.write([(PageStoreKeys.checkpointKey(topic, partition), nil)])
    }

    /// Deletes these checkpoints (what they covered is read again).
    public func removeCheckpoints(_ list: [(topic: String, partition: Int32)]) throws(PageStoreError) {
        try db().write(list.map { (PageStoreKeys.checkpointKey($0.topic, $0.partition), nil) })
    }

    /// Every page of `scope`, in key order (tests and tools; a scan reads the whole scope).
    public func pages(in scope: Scope) throws(PageStoreError) -> [(key: String, page: StoredPage)] {
        var out: [(key: String, page: StoredPage)] = []
        let prefix = PageStoreKeys.scopePrefix(scope)
        try db().scan(prefix: prefix) { key, value in
            if let page = StoredPage(encoded: value) {
                out.append((String(decoding: key[prefix.count...], as: UTF8.self), page))
            }
            return true
        }
        return out
    }

    // MARK: Checkpoints

    /// Whether a checkpoint is one the partition can have reached: between its low watermark and its end (as a
    /// fetch finds it). Outside, the topic was recreated or deleted past it, and what it covers is read again.
    public static func isValid(checkpoint: Int64, low: Int64, end: Int64) -> Bool {
        checkpoint >= low && checkpoint <= end
    }

    /// The next offset of `topic`'s `partition` the store has not taken in; nil when it has none.
    public func checkpoint(topic: String, partition: Int32) throws(PageStoreError) -> Int64? {
        guard let bytes = try db().get(PageStoreKeys.checkpointKey(topic, partition)) else { return nil }
        var r = ByteReader(bytes)
        return r.integer(UInt64.self).map { Int64(bitPattern: $0) }
    }

    // MARK: Figures

    /// Bytes of the store's files on disk.
    public var diskBytes: Int {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return files.reduce(0) { sum, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            return sum + ((attributes?[.size] as? Int) ?? 0)
        }
    }

    /// RocksDB's estimate of the pages held (keys less checkpoints and identity; exact after a compaction).
    public var estimatedPages: Int {
        Int((try? db().property("rocksdb.estimate-num-keys")) ?? 0)
    }

    /// Blob files: where values of `RocksDatabase.minBlobBytes` and more are kept.
    public var blobFiles: Int {
        Int((try? db().property("rocksdb.num-blob-files")) ?? 0)
    }

    /// Stored pages whose bytes could not be read (taken as unknown).
    public var unreadable: Int { unreadableCount.load(ordering: .relaxed) }
}

extension RocksDatabase {
    /// Whether the database holds any key at all.
    func hasAnyKey() throws(PageStoreError) -> Bool {
        var any = false
        try scan(prefix: []) { _, _ in
            any = true
            return false
        }
        return any
    }
}

extension [UInt8] {
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        var v = value.bigEndian
        Swift.withUnsafeBytes(of: &v) { append(contentsOf: $0) }
    }
}
