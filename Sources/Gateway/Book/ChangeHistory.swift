import LayoutKit
import PageStore

/// The change sets a gateway keeps per page, so a client that resumes from a hash a few versions back gets the steps
/// instead of the whole record.
enum ChangeHistory {
    /// The change sets a page keeps, newest last: as many as fit in the bytes of its record (a resume that would
    /// need more is sent the record instead), and no more than `maxHistory`.
    static func keep(_ history: [StoredChange], recordBytes: Int) -> [StoredChange] {
        var total = 0
        var first = history.count
        while first > 0, history.count - first < maxHistory {
            let size = history[first - 1].bytes.count
            guard total + size <= max(recordBytes, minHistoryBytes) else { break }
            total += size
            first -= 1
        }
        return first == 0 ? history : Array(history[first...])
    }

    static let maxHistory = 256
    static let minHistoryBytes = 16 * 1024

    /// The change sets leading from `from` to `to`, oldest first, when the history holds every step.
    static func chain(from: ContentHash, to: ContentHash, in history: [StoredChange]) -> [StoredChange]? {
        guard let start = history.lastIndex(where: { $0.base == from }) else { return nil }
        var steps = [history[start]]
        var at = history[start].target
        var i = start + 1
        while at != to {
            guard i < history.count else { return nil }
            if history[i].base == at {
                steps.append(history[i])
                at = history[i].target
            }
            i += 1
        }
        return steps
    }
}
