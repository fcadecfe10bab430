public import LayoutCompiler
public import LayoutDiff
import LayoutKit
public import LayoutRecord

/// What a new record does to a page: the one definition `serve --changes-topic`, `replay`'s and `preview`'s pages
/// and `diff --responses` share. The record takes over the attributes its adaptors carry from the page's previous
/// layout (read back only when one changed), and the change set leads from that layout to the result.
public struct PageStep: Sendable {
    /// Nil for records that carry nothing (`diff` of two records, not responses).
    let carrier: AttributeCarrier?
    let differ = LayoutDiffer()

    /// The step for records `compiler` makes (its adaptors' carries and its config's `carry` declarations).
    public init(for compiler: LayoutCompiler) { carrier = AttributeCarrier(for: compiler) }

    /// A step that carries nothing: the change set between records as they are.
    public init() { carrier = nil }

    /// The page's next layout and the change set that leads to it from `previous`.
    public struct Next: Sendable {
        /// The record as published (with carried attributes), read.
        public var layout: RecordOutline
        public var changeSet: ChangeSet
        /// The record's bytes as published.
        public var record: [UInt8] { layout.bytes }
    }

    /// What a record does to a page at `previous`: the page's next layout and the change set to it, or, when the
    /// record (attributes carried) lays out exactly what `previous` does but for its `source`, nothing.
    public enum Change: Sendable {
        case next(Next)
        /// The same layout: `record` is the record as published (carried); the page keeps `previous`.
        case unchanged(record: RecordOutline)
    }

    /// The change `record` makes to a page at `previous` (keyed `key`): an unchanged layout makes no change set, so
    /// the page keeps its bytes, its hash and what every renderer and cache holds of it.
    public func change(after previous: RecordOutline?, record: RecordOutline, key: String?) -> Change {
        let layout = carried(record, after: previous)
        if let previous, differ.sameLayout(previous, layout) { return .unchanged(record: layout) }
        return .next(Next(layout: layout, changeSet: differ.diff(from: previous, to: layout, key: key)))
    }

    /// `record` as it is published after `previous` (attributes carried; the same outline when none change).
    public func carried(_ record: RecordOutline, after previous: RecordOutline?) -> RecordOutline {
        guard let carrier, let previous else { return record }
        return carrier.carry(into: record, from: previous) ?? record
    }

    /// The page's next layout after `previous` and the change set to it, keyed `key`: `record` is the outline the
    /// compiler noted while writing it (or one read from bytes), so nothing is parsed here.
    public func next(after previous: RecordOutline?, record: RecordOutline, key: String?) -> Next {
        let layout = carried(record, after: previous)
        return Next(layout: layout, changeSet: differ.diff(from: previous, to: layout, key: key))
    }
}
