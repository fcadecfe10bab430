public import LayoutKit
import Synchronization

/// What the book answers with beside its pages' bytes: reads and stream openings, gzip, counts for `/metrics`.
extension PageBook {
    /// What a new stream starts from: the events its client lacks (a new client's record is made once per record
    /// and shared by every stream that opens on it), and where it is once it has them.
    public struct Opening: Sendable {
        public var catchUp: [EventBytes]
        public var cursor: StreamCursor
    }

    /// What a page read finds.
    public enum Lookup: Sendable {
        case page(record: [UInt8], at: StreamPosition)
        /// Never laid out (or cleared by a tombstone).
        case unknown
        /// Let go to stay within the byte budget (no page store); answered again once the page changes.
        case evicted
    }

    /// A page's latest record. A page in memory is found under one lock and one lookup (every GET comes here); one
    /// on disk is read into memory first.
    public func read(_ key: String) -> Lookup {
        if let inMemory = state.withLock({ $0.readInMemory(key) }) {
            memoryHits.add(1, ordering: .relaxed)
            return inMemory
        }
        return withPage(key) { s, _ in
            let found = s.readInMemory(key)
            if found != nil { evictIfOver(&s) }  // read in from disk
            return found ?? (s.evicted.contains(key) ? .evicted : .unknown)
        }
    }

    /// A page's latest record compressed with gzip, made once per record while the page is in memory.
    public func gzipRecord(_ key: String, hash: ContentHash, record: [UInt8]) -> [UInt8]? {
        if let cached = state.withLock({ $0.gzip(of: key, hash: hash) }) { return cached }
        guard let compressed = Gzip.compress(record) else { return nil }
        state.withLock { $0.keep(gzip: compressed, for: key, hash: hash) }
        return compressed
    }

    /// Whether `key` has streams open; whether its record is in memory.
    public func hasStreams(_ key: String) -> Bool { state.withLock { $0.streams[key] != nil } }
    func holdsInMemory(_ key: String) -> Bool { state.withLock { $0.pages[key]?.record != nil } }

    /// Streams opened since the start.
    public var streamsOpened: Int { opened.load(ordering: .relaxed) }

    /// Streams followed now.
    public var streamCount: Int { state.withLock { $0.streamTotal } }

    public var figures: Figures { Figures(self) }

    /// Figures for `/metrics`.
    public struct Figures: Sendable {
        public let pages: Int, bytes: Int, streams: Int, evictions: Int, memoryHits: Int, diskReads: Int
        public let writeFailure: String?

        init(_ book: PageBook) {
            (pages, bytes, streams, writeFailure) = book.state.withLock { s in
                (s.pages.count, s.bytes, s.streamTotal, s.writeFailure)
            }
            evictions = book.evictions.load(ordering: .relaxed)
            memoryHits = book.memoryHits.load(ordering: .relaxed)
            diskReads = book.diskReads.load(ordering: .relaxed)
        }
    }
}
