import Delivery
import PageState
import PageStore

/// Who stores a page's latest layout in a batch, and what the page's other change sets wait for.
///
/// The latest-layout topic is compacted, so of the messages of a batch that change or clear one page, only the
/// last stores it; the change sets of the others wait for that store (so none is published ahead of the page's
/// stored position, as when each message stored its own).
enum StateWrite: Equatable {
    /// This message stores the page's latest layout (or its tombstone), opening `opens` when it is stored.
    case store(opens: DeliveryEngine.Gate?)
    /// A later message of the batch stores the page: this one stores nothing, and its change set is published once
    /// that later layout is stored.
    case waitFor(DeliveryEngine.Gate)

    /// The gate this message's change set waits for, and the one its latest layout opens.
    var gates: (waitsFor: DeliveryEngine.Gate?, opens: DeliveryEngine.Gate?) {
        switch self {
        case .store(let g): (nil, g)
        case .waitFor(let g): (g, nil)
        }
    }

    /// Sets `state` on every item that changes, re-states or clears a page; `makeGate` makes one gate per page changed more
    /// than once in the batch.
    static func assign(_ items: inout [BatchItem], makeGate: () -> DeliveryEngine.Gate) {
        var last: [PageKey: (index: Int, count: Int)] = [:]
        var keys = [PageKey?](repeating: nil, count: items.count)
        for (i, item) in items.enumerated() {
            let name: String
            switch item.page {
            case .changed(let step)?: name = step.pageKey
            case .unchanged(let u)?: name = u.pageKey
            case .cleared(let page, _)?: name = page
            default: continue
            }
            let key = PageKey(name, of: item.message)
            keys[i] = key
            last[key] = (i, (last[key]?.count ?? 0) + 1)
        }
        var gates: [PageKey: DeliveryEngine.Gate] = [:]
        for (key, page) in last where page.count > 1 { gates[key] = makeGate() }
        for (i, key) in keys.enumerated() {
            guard let key else { continue }
            items[i].state = last[key]!.index == i ? .store(opens: gates[key]) : .waitFor(gates[key]!)
        }
    }
}
