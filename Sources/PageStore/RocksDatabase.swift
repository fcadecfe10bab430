import CRocksDB
import Synchronization

/// The one owner of a RocksDB handle: opening (with the page store's options), reads, atomic write batches,
/// prefix scans and properties. RocksDB's handle is safe to use from several threads at once.
final class RocksDatabase: @unchecked Sendable {
    private let handle: OpaquePointer
    private let options: OpaquePointer
    private let tableOptions: OpaquePointer
    private let cache: OpaquePointer
    private let readOptions: OpaquePointer
    private let writeOptions: OpaquePointer
    private let unloggedWriteOptions: OpaquePointer
    let path: String

    /// Opens (creating) the database at `path`; `blockCacheBytes` bounds RocksDB's own cache of disk blocks.
    init(path: String, blockCacheBytes: Int) throws(PageStoreError) {
        self.path = path
        options = rocksdb_options_create()
        rocksdb_options_set_create_if_missing(options, 1)
        // Records are JSON: lz4 keeps them at about a sixth on disk (scripts/bench-store-engines.sh).
        rocksdb_options_set_compression(options, Int32(rocksdb_lz4_compression))
        // Memory: two 16 MiB write buffers at most, a bounded block cache, index and filters inside it.
        rocksdb_options_set_write_buffer_size(options, 16 << 20)
        rocksdb_options_set_max_write_buffer_number(options, 2)
        rocksdb_options_set_max_total_wal_size(options, 64 << 20)
        rocksdb_options_set_max_open_files(options, 256)
        // RocksDB's own LOG file gets its header only: Debian's build asserts when a log line is written to a file
        // whose earlier write failed, and a full disk makes every later log line such a write.
        rocksdb_options_set_info_log_level(options, 5)  // HEADER_LEVEL
        rocksdb_options_set_keep_log_file_num(options, 2)
        rocksdb_options_set_max_log_file_size(options, 1 << 20)
        rocksdb_options_set_max_background_jobs(options, 2)
        // Large values (a search page's record is tens of KB) go to blob files, written once and compressed once:
        // compactions then move keys and references, not the values. Blobs of replaced pages are collected when
        // compactions reach the oldest blob files (RocksDB's default age cut-off), except during a bulk load.
        rocksdb_options_set_enable_blob_files(options, 1)
        rocksdb_options_set_min_blob_size(options, UInt64(Self.minBlobBytes))
        rocksdb_options_set_blob_compression_type(options, Int32(rocksdb_lz4_compression))
        rocksdb_options_set_enable_blob_gc(options, 1)
        // A torn last write (a crash mid-append) is dropped at recovery; everything before it is kept.
        rocksdb_options_set_wal_recovery_mode(options, 2)  // kPointInTimeRecovery
        cache = rocksdb_cache_create_lru(max(1 << 20, blockCacheBytes))
        tableOptions = rocksdb_block_based_options_create()
        rocksdb_block_based_options_set_block_cache(tableOptions, cache)
        rocksdb_block_based_options_set_block_size(tableOptions, 16 * 1024)
        rocksdb_block_based_options_set_filter_policy(tableOptions, rocksdb_filterpolicy_create_bloom(10))
        rocksdb_block_based_options_set_cache_index_and_filter_blocks(tableOptions, 1)
        // XXH3 block checksums: Debian's RocksDB computes CRC32C without the CPU's instruction.
        rocksdb_block_based_options_set_checksum(tableOptions, 4)
        rocksdb_options_set_block_based_table_factory(options, tableOptions)
        readOptions = rocksdb_readoptions_create()
        // Not synced per write: a process crash loses nothing (the log is in the kernel's buffers); a machine crash
        // may lose the last writes, and the checkpoint written with them goes back too, so they are read again.
        writeOptions = rocksdb_writeoptions_create()
        unloggedWriteOptions = rocksdb_writeoptions_create()
        rocksdb_writeoptions_disable_WAL(unloggedWriteOptions, 1)
        var error: UnsafeMutablePointer<CChar>?
        let db = rocksdb_open(options, path, &error)
        if let error {
            let text = String(cString: error)
            rocksdb_free(error)
            Self.release(options, tableOptions, cache, readOptions, writeOptions, unloggedWriteOptions)
            throw PageStoreError(path: path, operation: "open", message: text)
        }
        handle = db!
    }

    private var closed = false
    /// Set once a write failed. Such a database takes no more writes and is never closed: RocksDB (as Debian builds
    /// it, with assertions) aborts the process when a log file in error is written or synced again; the process's
    /// exit releases it.
    private let writeFailed = Atomic<Bool>(false)

    deinit { close() }

    /// Closes the database now (before its files are deleted); only while no other thread uses it.
    func close() {
        guard !closed else { return }
        closed = true
        guard !writeFailed.load(ordering: .acquiring) else { return }
        rocksdb_close(handle)
        Self.release(options, tableOptions, cache, readOptions, writeOptions, unloggedWriteOptions)
    }

    private static func release(
        _ options: OpaquePointer, _ table: OpaquePointer, _ cache: OpaquePointer, _ read: OpaquePointer,
        _ write: OpaquePointer, _ unlogged: OpaquePointer
    ) {
        rocksdb_readoptions_destroy(read)
        rocksdb_writeoptions_destroy(write)
        rocksdb_writeoptions_destroy(unlogged)
        rocksdb_options_destroy(options)
        rocksdb_block_based_options_destroy(table)
        rocksdb_cache_destroy(cache)
    }

    /// Deletes the database at `path` (its files; the directory stays).
    static func destroy(path: String) throws(PageStoreError) {
        let options = rocksdb_options_create()
        defer { rocksdb_options_destroy(options) }
        var error: UnsafeMutablePointer<CChar>?
        rocksdb_destroy_db(options, path, &error)
        if let error {
            let text = String(cString: error)
            rocksdb_free(error)
            throw PageStoreError(path: path, operation: "destroy", message: text)
        }
    }

    /// The value stored under `key`, if any.
    func get(_ key: [UInt8]) throws(PageStoreError) -> [UInt8]? {
        var length = 0
        var error: UnsafeMutablePointer<CChar>?
        let value = key.withUnsafeBufferPointer { k in
            k.withMemoryRebound(to: CChar.self) { k in
                rocksdb_get(handle, readOptions, k.baseAddress, k.count, &length, &error)
            }
        }
        if let error { throw failure("read", error) }
        guard let value else { return nil }
        defer { rocksdb_free(value) }
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Values of at least this many bytes are kept in blob files.
    static let minBlobBytes = 4096

    /// Writes every put and delete of `batch` atomically; `logged: false` skips the write-ahead log (the batch is
    /// durable once `flush` ran, and lost with the memtable before: all of it, since a batch lands in one memtable).
    func write(_ batch: [(key: [UInt8], value: [UInt8]?)], logged: Bool = true) throws(PageStoreError) {
        let b = rocksdb_writebatch_create()
        defer { rocksdb_writebatch_destroy(b) }
        for (key, value) in batch {
            key.withUnsafeBufferPointer { k in
                k.withMemoryRebound(to: CChar.self) { k in
                    if let value {
                        value.withUnsafeBufferPointer { v in
                            v.withMemoryRebound(to: CChar.self) { v in
                                rocksdb_writebatch_put(b, k.baseAddress, k.count, v.baseAddress, v.count)
                            }
                        }
                    } else {
                        rocksdb_writebatch_delete(b, k.baseAddress, k.count)
                    }
                }
            }
        }
        try commit(b!, "write", logged: logged)
    }

    /// Writes a batch, unless an earlier write failed (see `writeFailed`).
    private func commit(_ batch: OpaquePointer, _ operation: String, logged: Bool = true) throws(PageStoreError) {
        guard !writeFailed.load(ordering: .acquiring) else {
            throw PageStoreError(
                path: path, operation: operation, message: "an earlier write failed; no more writes until a restart")
        }
        var error: UnsafeMutablePointer<CChar>?
        rocksdb_write(handle, logged ? writeOptions : unloggedWriteOptions, batch, &error)
        if let error {
            writeFailed.store(true, ordering: .releasing)
            throw failure(operation, error)
        }
    }

    /// Writes the memtables to disk and waits for it: every write so far, logged or not, is durable from here on.
    func flush() throws(PageStoreError) {
        guard !writeFailed.load(ordering: .acquiring) else {
            throw PageStoreError(
                path: path, operation: "flush", message: "an earlier write failed; no more writes until a restart")
        }
        let flushOptions = rocksdb_flushoptions_create()
        defer { rocksdb_flushoptions_destroy(flushOptions) }
        rocksdb_flushoptions_set_wait(flushOptions, 1)
        var error: UnsafeMutablePointer<CChar>?
        rocksdb_flush(handle, flushOptions, &error)
        if let error {
            writeFailed.store(true, ordering: .releasing)
            throw failure("flush", error)
        }
    }

    /// Turns the collection of replaced values in blob files on or off (a bulk load replaces none, so collecting
    /// during one would only copy values again).
    func collectBlobGarbage(_ on: Bool) throws(PageStoreError) {
        var error: UnsafeMutablePointer<CChar>?
        "enable_blob_garbage_collection".withCString { key in
            (on ? "true" : "false").withCString { value in
                var keys: [UnsafePointer<CChar>?] = [key]
                var values: [UnsafePointer<CChar>?] = [value]
                rocksdb_set_options(handle, 1, &keys, &values, &error)
            }
        }
        if let error { throw failure("set options", error) }
    }

    /// Deletes every key from `start` (inclusive) to `end` (exclusive).
    func deleteRange(from start: [UInt8], to end: [UInt8]) throws(PageStoreError) {
        let b = rocksdb_writebatch_create()
        defer { rocksdb_writebatch_destroy(b) }
        start.withUnsafeBufferPointer { s in
            s.withMemoryRebound(to: CChar.self) { s in
                end.withUnsafeBufferPointer { e in
                    e.withMemoryRebound(to: CChar.self) { e in
                        rocksdb_writebatch_delete_range(b, s.baseAddress, s.count, e.baseAddress, e.count)
                    }
                }
            }
        }
        try commit(b!, "delete")
    }

    /// Calls `body` with every key and value starting with `prefix`, in key order, until it returns false.
    func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) -> Bool) throws(PageStoreError) {
        let it = rocksdb_create_iterator(handle, readOptions)!
        defer { rocksdb_iter_destroy(it) }
        prefix.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { rocksdb_iter_seek(it, $0.baseAddress, $0.count) }
        }
        while rocksdb_iter_valid(it) != 0 {
            var kl = 0, vl = 0
            let k = rocksdb_iter_key(it, &kl)!, v = rocksdb_iter_value(it, &vl)
            let key = k.withMemoryRebound(to: UInt8.self, capacity: kl) {
                Array(UnsafeBufferPointer(start: $0, count: kl))
            }
            guard key.starts(with: prefix) else { break }
            let value =
                v.map { v in
                    v.withMemoryRebound(to: UInt8.self, capacity: vl) {
                        Array(UnsafeBufferPointer(start: $0, count: vl))
                    }
                } ?? []
            guard body(key, value) else { break }
            rocksdb_iter_next(it)
        }
        var error: UnsafeMutablePointer<CChar>?
        rocksdb_iter_get_error(it, &error)
        if let error { throw failure("scan", error) }
    }

    /// An integer property (e.g. `rocksdb.total-sst-files-size`), nil when RocksDB has none by that name.
    func property(_ name: String) -> UInt64? {
        var value: UInt64 = 0
        return rocksdb_property_int(handle, name, &value) == 0 ? value : nil
    }

    private func failure(_ operation: String, _ error: UnsafeMutablePointer<CChar>) -> PageStoreError {
        let text = String(cString: error)
        rocksdb_free(error)
        return PageStoreError(path: path, operation: operation, message: text)
    }
}
