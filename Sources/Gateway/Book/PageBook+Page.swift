import LayoutKit
import PageStore

extension PageBook {
    /// One page in memory: its latest record (and what is made from it once: gzip, the record event), where its
    /// streams were brought to, and its recent change sets.
    struct Page {
        var record: [UInt8]?
        var hash: ContentHash?
        /// The record's position (its input offset), when it has one.
        var position: Int64?
        var gzip: [UInt8]?
        /// The record as an event, for the streams that open on it (made when the first one does).
        var recordEvent: EventBytes?
        /// Where streams were last brought to.
        var streamAt: StreamPosition?
        /// When `record` became newer than `streamAt` (waiting for its change set).
        var pendingSince: ContinuousClock.Instant?
        /// Recent change sets, oldest first, bounded by bytes (`ChangeHistory.keep`).
        var history: [StoredChange] = []
        /// When the page was last read (the book's tick; 0: never): the least recently read go first.
        var lastRead: UInt64 = 0
        /// When the page was last stored (the book's tick): among pages read as long ago, the oldest go first.
        var lastStored: UInt64 = 0

        init(record: [UInt8]? = nil, position: Int64? = nil, history: [StoredChange] = []) {
            self.record = record
            self.hash = record.map { ContentHash(of: $0) }
            self.position = position
            self.streamAt = at
            self.history = history
        }

        /// What a page in memory costs besides its bytes: this struct (about 150 bytes) in the book's table (kept
        /// at most three-quarters full), its key, and the arrays' headers and allocator rounding. A budget of small
        /// pages counted without it held a fifth more than it said (1,000,000 pages of 2 KB, 95 MiB).
        static let overheadBytes = 320

        /// The page's read and store ticks, for eviction.
        var ticks: (read: UInt64, stored: UInt64) { (lastRead, lastStored) }

        /// Where the record puts a client.
        var at: StreamPosition? { hash.map { StreamPosition(hash: $0, offset: position) } }
        /// What the page costs in memory: its bytes and what holding it costs besides (`overheadBytes`).
        var bytes: Int {
            Self.overheadBytes + (record?.count ?? 0) + (gzip?.count ?? 0)
                + (recordEvent.map { $0.plain.readableBytes * 2 } ?? 0)
                + history.reduce(0) { $0 + $1.bytes.count }
        }
        var stored: StoredPage { StoredPage(position: position, record: record, history: history) }

        /// Takes `bytes` as the page's record, made from the input at `position`: what was made from the old one
        /// (gzip, event) goes, and the history keeps what fits the new record (`ChangeHistory.keep`).
        /// The same bytes again (a page re-stated by an unchanged input) only move the position: the gzip and the
        /// history stay, the record event is made again for its new id.
        mutating func take(record bytes: [UInt8], position: Int64?) -> ContentHash {
            let hash = ContentHash(of: bytes)
            if hash == self.hash, record == bytes {
                (self.position, recordEvent) = (position, nil)
                return hash
            }
            (record, self.hash, self.position, gzip, recordEvent) = (bytes, hash, position, nil, nil)
            history = ChangeHistory.keep(history, recordBytes: bytes.count)
            return hash
        }
    }
}
