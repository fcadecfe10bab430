public import LayoutRecord
public import PageStore

/// The previous layout per page key, and the input position (offset on the key's partition) it was made from,
/// bounded by bytes: the least recently used pages are evicted first. A cleared page (a tombstone) keeps its
/// position without a layout, so a re-delivered older input cannot bring it back.
public struct LayoutStore: Sendable {
    /// What the store holds for a page: its layout (nil once cleared), the offset of the input that made it, and
    /// the steps whose change sets may not be published yet (`CarriedStep`).
    public struct Page: Sendable {
        public var layout: RecordOutline?
        public var position: Int64?
        public var steps: [CarriedStep]

        public init(layout: RecordOutline?, position: Int64?, steps: [CarriedStep] = []) {
            self.layout = layout
            self.position = position
            self.steps = steps
        }
    }

    private struct Entry {
        var key: PageKey
        var page: Page
        var bytes: Int
        var newer: Int
        var older: Int
    }

    /// The byte budget (record text plus tape of every stored layout).
    public let maxBytes: Int
    public private(set) var bytes = 0
    public private(set) var evictions = 0
    private var slots: [Entry?] = []
    private var free: [Int] = []
    private var index: [PageKey: Int] = [:]
    private var newest = -1
    private var oldest = -1

    public init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// Pages held (with a layout, or cleared with a position).
    public var count: Int { index.count }

    /// The layout for `key`, marked as most recently used.
    public mutating func layout(for key: PageKey) -> RecordOutline? { page(for: key)?.layout }

    /// What is held for `key` (a layout, or a cleared page's position), marked as most recently used.
    public mutating func page(for key: PageKey) -> Page? {
        guard let i = index[key] else { return nil }
        unlink(i)
        pushNewest(i)
        return slots[i]?.page
    }

    /// Stores `layout` for `key`, evicting the least recently used layouts beyond the budget.
    public mutating func store(_ layout: RecordOutline, for key: PageKey) {
        store(Page(layout: layout, position: nil), for: key)
    }

    /// Stores what a page ends with: its layout and position, or only the position of the input that cleared it
    /// (nothing at all when neither is known).
    public mutating func store(_ page: Page, for key: PageKey) {
        remove(key)
        guard page.layout != nil || page.position != nil else { return }
        let size = (page.layout?.footprint ?? 0) + key.page.utf8.count + 64 + page.steps.reduce(0) { $0 + $1.bytes }
        guard size <= maxBytes else {
            evictions += 1
            return
        }
        let entry = Entry(key: key, page: page, bytes: size, newer: -1, older: -1)
        let i: Int
        if let reused = free.popLast() {
            slots[reused] = entry
            i = reused
        } else {
            slots.append(entry)
            i = slots.count - 1
        }
        index[key] = i
        pushNewest(i)
        bytes += size
        while bytes > maxBytes, oldest >= 0 {
            let victim = oldest
            if let key = slots[victim]?.key { remove(key) }
            evictions += 1
        }
    }

    /// Forgets the layout for `key` (a tombstone for the page).
    public mutating func remove(_ key: PageKey) {
        guard let i = index.removeValue(forKey: key) else { return }
        unlink(i)
        bytes -= slots[i]?.bytes ?? 0
        slots[i] = nil
        free.append(i)
    }

    /// Forgets every layout of `scope` (an input partition that was revoked: its new owner rebuilds them).
    public mutating func remove(_ scope: PageStore.Scope) {
        for key in index.keys where key.scope == scope { remove(key) }
    }

    private mutating func unlink(_ i: Int) {
        guard let e = slots[i] else { return }
        if e.newer >= 0 { slots[e.newer]?.older = e.older } else { newest = e.older }
        if e.older >= 0 { slots[e.older]?.newer = e.newer } else { oldest = e.newer }
        slots[i]?.newer = -1
        slots[i]?.older = -1
    }

    private mutating func pushNewest(_ i: Int) {
        slots[i]?.older = newest
        slots[i]?.newer = -1
        if newest >= 0 { slots[newest]?.newer = i }
        newest = i
        if oldest < 0 { oldest = i }
    }
}
