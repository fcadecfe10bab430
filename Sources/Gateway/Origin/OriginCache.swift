import Synchronization

/// The navigation states held in memory, within a byte budget: past it, the least recently read go (down to 90% of
/// the budget, so eviction runs once per many stores, not on each).
public final class OriginCache: Sendable {
    private struct Slot {
        var state: HeldState
        var lastRead: UInt64
    }

    private struct Contents {
        var slots: [String: Slot] = [:]
        var bytes = 0
        var tick: UInt64 = 0
    }

    let maxBytes: Int
    private let contents = Mutex(Contents())

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// The state held for `key` (counted as read).
    func read(_ key: String) -> HeldState? {
        contents.withLock { c in
            guard var slot = c.slots[key] else { return nil }
            c.tick += 1
            slot.lastRead = c.tick
            c.slots[key] = slot
            return slot.state
        }
    }

    /// Holds `state` for `key`, in place of what was held.
    func store(_ state: HeldState, for key: String) {
        contents.withLock { c in
            c.tick += 1
            let before = c.slots.updateValue(Slot(state: state, lastRead: c.tick), forKey: key)
            c.bytes += state.bytes - (before?.state.bytes ?? 0)
            guard c.bytes > maxBytes else { return }
            let target = maxBytes / 10 * 9
            let byAge = c.slots.map { ($0.value.lastRead, $0.key) }.sorted { $0.0 < $1.0 }
            for (_, old) in byAge where c.bytes > target && old != key {
                if let gone = c.slots.removeValue(forKey: old) { c.bytes -= gone.state.bytes }
            }
        }
    }

    /// The gzip of the state held for `key` as `hash`: made once, on the first request that accepts it, and kept
    /// with it (counted in the budget). Nil when zlib refuses.
    func gzip(_ key: String, _ state: HeldState) -> [UInt8]? {
        if let made = state.gzip { return made }
        guard let compressed = Gzip.compress(state.record) else { return nil }
        contents.withLock { c in
            guard var slot = c.slots[key], slot.state.hash == state.hash, slot.state.gzip == nil else { return }
            slot.state.gzip = compressed
            c.bytes += compressed.count
            c.slots[key] = slot
        }
        return compressed
    }

    /// Lets `key`'s state go (a page was published under its key).
    func drop(_ key: String) {
        contents.withLock { c in
            if let gone = c.slots.removeValue(forKey: key) { c.bytes -= gone.state.bytes }
        }
    }

    /// States held, and their bytes.
    var figures: (states: Int, bytes: Int) { contents.withLock { ($0.slots.count, $0.bytes) } }
}
