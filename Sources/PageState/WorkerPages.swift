public import Kafka
import LayoutRecord
public import PageStore

/// The worker's pages: a bounded memory cache (`LayoutStore`) in front of the page store on disk, which holds every
/// page's latest layout and position whatever their number. What a batch does to a page is in memory at once; it
/// reaches the disk when the page's latest layout is acknowledged on the latest-layout topic, with that topic's
/// offset as the checkpoint of the input partition's pages (so the store only ever holds what the topic holds).
/// Until then the page's state is kept apart from the cache (`unstored`) and never evicted, so no lookup can find
/// an older state on disk. Without a disk store (`--page-store off`, or it could not be opened) it is the cache alone.
public struct WorkerPages: Sendable {
    public typealias Page = LayoutStore.Page

    public private(set) var cache: LayoutStore
    public private(set) var disk: PageStore?
    /// States a batch made whose latest layout is not on disk yet, by page.
    private var unstored: [PageKey: Page] = [:]
    /// Acknowledged latest layouts to write at the next `flush`, and the checkpoints they move.
    private var pending: [PageKey: StoredPage] = [:]
    private var checkpoints: [Partition: Int64] = [:]
    /// Lookups answered from memory, and those that went to the disk store.
    public private(set) var hits = 0
    public private(set) var misses = 0
    /// Why a write to disk failed (nil: none did); from then on pages changed stay in memory.
    public private(set) var writeFailure: String?

    public init(maxBytes: Int, disk: PageStore? = nil) {
        cache = LayoutStore(maxBytes: maxBytes)
        self.disk = disk
    }

    /// Uses `disk` from now on (opened once the cluster is known).
    public mutating func use(_ disk: PageStore?) { self.disk = disk }

    /// Pages held in the memory cache.
    public var count: Int { cache.count }
    /// Pages changed in memory and not on disk yet.
    public var unstoredCount: Int { unstored.count }

    /// What memory holds for `key` (marked as recently used); nil when only the disk store can tell.
    public mutating func inMemory(_ key: PageKey) -> Page? { unstored[key] ?? cache.page(for: key) }

    /// What `disk` holds for `key`: safe from any thread. Nil when it holds nothing (or cannot be read).
    /// A stored record that is not a layout record keeps its position and starts the page from empty
    /// (`unreadable`), as when it is read back from the topic without a disk store.
    static func onDisk(_ key: PageKey, in disk: PageStore?) -> (page: Page, unreadable: Bool)? {
        guard let disk, let stored = try? disk.page(key) else { return nil }
        guard let record = stored.record else {
            return (Page(layout: nil, position: stored.position, steps: stored.steps), false)
        }
        let layout = try? RecordOutline(bytes: record)
        return (Page(layout: layout, position: stored.position, steps: stored.steps), layout == nil)
    }

    /// Counts a lookup answered from memory or from disk.
    mutating func counted(hits: Int, misses: Int) {
        self.hits += hits
        self.misses += misses
    }

    /// What a batch left a page with; when the batch `moved` it, it waits in memory until its latest layout is
    /// acknowledged.
    mutating func settled(_ page: Page, for key: PageKey, moved: Bool) {
        cache.store(page, for: key)
        if moved, disk != nil { unstored[key] = page }
    }

    /// The page's latest layout (nil: its tombstone) was acknowledged at `offset` of the latest-layout topic, with
    /// the steps it carries: it goes to disk at the next `flush`, and so does the checkpoint of its input partition.
    public mutating func acknowledged(
        _ key: PageKey, record: [UInt8]?, position: Int64?, steps: [CarriedStep], stateOffset: Int64
    ) {
        guard disk != nil, writeFailure == nil else { return }
        pending[key] = StoredPage(position: position, record: record, steps: steps)
        if let input = key.scope.input { checkpoints[input] = max(checkpoints[input] ?? 0, stateOffset + 1) }
    }

    /// The change set of the page's step from input offset `step` is on its topic: the step is no longer carried
    /// (a latest layout stored from now on leaves it out).
    public mutating func changeSetAcknowledged(_ key: PageKey, step: Int64) {
        if var page = unstored[key], page.steps.contains(where: { $0.offset == step }) {
            page.steps.removeAll { $0.offset == step }
            unstored[key] = page
        }
        if var page = cache.page(for: key), page.steps.contains(where: { $0.offset == step }) {
            page.steps.removeAll { $0.offset == step }
            cache.store(page, for: key)
        }
    }

    /// Writes what was acknowledged since the last flush in one atomic batch; the pages it stores leave `unstored`
    /// when nothing newer waits for them. A failed write is the last: the store takes no more (`PageStore.write`),
    /// so what is not on disk stays in `unstored`, in memory, until a restart reads it back from the topic.
    public mutating func flush() {
        guard let disk, !pending.isEmpty || !checkpoints.isEmpty else { return }
        var batch = PageStore.Batch()
        for (key, page) in pending { batch.pages.append((key, page)) }
        for (p, offset) in checkpoints { batch.checkpoints.append((p.topic, p.number, offset)) }
        do {
            try disk.write(batch)
        } catch {
            writeFailure = error.description
            pending.removeAll()
            checkpoints.removeAll()
            return
        }
        writeFailure = nil
        for (key, page) in pending where unstored[key]?.position == page.position { unstored[key] = nil }
        pending.removeAll(keepingCapacity: true)
        checkpoints.removeAll(keepingCapacity: true)
    }

    /// Forgets a revoked partition's pages in memory (the disk keeps them, and the checkpoint to resume from).
    public mutating func removePartition(_ partition: Partition) {
        let scope = PageStore.Scope(partition)
        cache.remove(scope)
        for key in unstored.keys where key.scope == scope { unstored[key] = nil }
    }

    /// Loads a page read back from the latest-layout topic into memory (no disk store: the cache is all there is).
    public mutating func loaded(_ page: Page, for key: PageKey) { cache.store(page, for: key) }
}
