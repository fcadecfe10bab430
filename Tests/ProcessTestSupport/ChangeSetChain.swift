import Kafka
import LayoutJSON
import LayoutKit

/// The change sets of a change-set topic followed page by page, in topic order, as a renderer that reads the topic
/// takes them: each new step must start where the page's last one ended (the empty page first), from a later input.
/// A step seen before for the page is a repeat (published again by a worker after another died before its commit:
/// a follower already past it ignores it); anything else out of place is a missing step or one back in time.
struct ChangeSetChain {
    /// A page's last step: the hash it ended at (nil: empty or cleared) and its input offset.
    private var at: [String: (hash: String?, offset: Int64)] = [:]
    private var seen: [String: Set<String>] = [:]
    /// Steps whose base is not where the page was (a step before them has no change set), as `page@offset`.
    private(set) var missing: [String] = []
    /// Steps from an input before the page's last one.
    private(set) var backwards: [String] = []
    private(set) var repeats = 0
    private(set) var steps = 0
    private(set) var unreadable = 0

    /// Takes the change-set topic's messages, in topic order.
    mutating func follow(_ messages: [KafkaMessage]) {
        for m in messages { take(m) }
    }

    private mutating func take(_ m: KafkaMessage) {
        let page = String(decoding: m.key ?? [], as: UTF8.self)
        guard let offset = m.integerHeader(Wire.Header.sourceOffset) else {
            unreadable += 1
            return
        }
        let base: String?, target: String?
        if let value = m.value {
            guard let hashes = Self.hashes(value) else {
                unreadable += 1
                return
            }
            (base, target) = hashes
        } else {
            (base, target) = (at[page]?.hash, nil)  // a tombstone clears the page from wherever it was
        }
        let step = "\(base ?? "empty")>\(target ?? "empty")@\(offset)"
        if seen[page, default: []].contains(step) {
            repeats += 1
            return
        }
        seen[page, default: []].insert(step)
        steps += 1
        if let last = at[page], last.offset >= offset { backwards.append("\(page)@\(offset)") }
        if base != at[page]?.hash { missing.append("\(page)@\(offset)") }
        at[page] = (target, offset)
    }

    /// A change set's base and target hashes (nil base: from the empty page).
    static func hashes(_ bytes: [UInt8]) -> (base: String?, target: String)? {
        guard let doc = try? JSONReader().read(bytes), let target = doc.value(doc.root, "target"),
            let targetHash = doc.value(target, "hash").flatMap(doc.string), let base = doc.value(doc.root, "base")
        else { return nil }
        return (doc.value(base, "hash").flatMap(doc.string), targetHash)
    }
}
