import AttributeCarrying
public import Kafka
public import LayoutCompiler
public import LayoutDiff
import LayoutJSON
import LayoutKit
public import LayoutRecord
public import PageStore

/// Per input message: the page key, attributes carried from the previous layout, and the change set against it.
public struct ChangeStage: Sendable {
    /// What one record becomes with changes on.
    public struct Step: Sendable {
        /// The record to publish (with carried attributes).
        public var record: [UInt8]
        public var pageKey: String
        public var changeSet: ChangeSet
        /// The page's steps whose change sets may not be published yet, this one last: stored with its latest layout.
        public var carried: [CarriedStep]
    }

    /// A record that leaves its page's layout as it is.
    public struct Unchanged: Sendable {
        /// The record to publish on the output topic (with carried attributes; its `source` names its input).
        public var record: [UInt8]
        public var pageKey: String
        /// The page's latest layout, byte for byte as before.
        public var latest: [UInt8]
        /// The page's steps whose change sets may not be published yet: stored with its latest layout.
        public var carried: [CarriedStep]
    }

    /// What one message of a batch does to its page.
    public enum Outcome: Sendable {
        /// A record for a page: publish it with its change set.
        case changed(Step)
        /// A record that lays out exactly what its page holds but for its `source` (the same response published
        /// again): `record` is published, the page's position moves to it and its latest layout (`latest`, the
        /// page's bytes as they were: same hash, same ETag) is stored again with that position; no change set.
        case unchanged(Unchanged)
        /// A tombstone that cleared a page; `carried` as for `Step`, this one (a `nil` change set) last.
        case cleared(page: String, carried: [CarriedStep])
        /// An input at or before the page's position (delivered again after a crash or a rebalance): the page
        /// stays where it is, so no new change set and no latest layout are made from it.
        /// Its record is published again, carrying attributes from the page's stored layout (so it shows no less
        /// than the page already does; nil for a tombstone). An input the page carries a step of publishes that
        /// step's change set again (`republish`): a worker that died after the page's latest layout was
        /// acknowledged may not have published it, and the group's commit passes the input only once this one is
        /// acknowledged, so every step before the commit has its change set on the topic.
        case redelivered(page: String, position: Int64, record: [UInt8]?, republish: [CarriedStep])
        /// No page key (or a tombstone that cannot name a page): nothing to track.
        case untracked
    }

    public let settings: ChangeSettings
    /// What a record does to its page (carried attributes, change set).
    var step: PageStep
    /// The pages of the last batch whose stored latest layout could not be read (they started from empty).
    public private(set) var unreadableOnDisk: [PageKey] = []
    /// Steps of the last batch no longer carried with their page's latest layout (past `CarriedStep.maxCount` or
    /// `maxBytes`):
    /// a crash before their change sets are acknowledged would leave those steps without one.
    public private(set) var uncarried = 0

    public init(settings: ChangeSettings, compiler: LayoutCompiler) {
        self.settings = settings
        self.step = PageStep(for: compiler)
    }

    /// Carries attributes as `compiler`'s config says from now on (after a config reload).
    public mutating func use(_ compiler: LayoutCompiler) { step = PageStep(for: compiler) }

    /// The outcome of each message of a batch (a record's outline as the compiler noted it, or nil for a tombstone),
    /// in order per page, each page starting from what `pages` (its owner's previous layout and position per page)
    /// holds and leaving it there; different pages are carried and diffed in parallel. Nothing is parsed: the
    /// outlines come from the compile. `committed` holds the group's confirmed commit per input partition: steps of
    /// inputs before it are published and no longer carried.
    public mutating func outcomes(
        _ batch: [(message: KafkaMessage, record: RecordOutline?)], on pages: inout WorkerPages,
        committed: [Partition: Int64] = [:]
    ) -> [Outcome] {
        var outcomes = [Outcome](repeating: .untracked, count: batch.count)
        // 1. Group by page, in batch order.
        var groups: [PageKey: [Int]] = [:]
        var order: [PageKey] = []
        for (i, item) in batch.enumerated() {
            let page: String?
            if let record = item.record {
                page = pageKey(item.message, record)
            } else {
                page = settings.pageKey == .messageKey ? Self.page(keyedBy: item.message) : nil
            }
            guard let page else { continue }
            let key = PageKey(page, of: item.message)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(i)
        }
        // 2. Each page's messages in order, pages in parallel, each starting from its layout in memory or else on
        //    disk; an input at or before the page's position leaves the page as it is.
        let inMemory = order.map { pages.inMemory($0) }
        let misses = inMemory.reduce(0) { $0 + ($1 == nil ? 1 : 0) }
        pages.counted(hits: order.count - misses, misses: misses)
        let (step, disk, keys, members, group) = (self.step, pages.disk, order, groups, settings.group)
        let ends = ParallelMap.map(count: keys.count, jobs: keys.count) { g in
            let key = keys[g]
            var end = PageEnd(page: inMemory[g])
            if end.page == nil, let stored = WorkerPages.onDisk(key, in: disk) {
                end.page = stored.page
                end.unreadable = stored.unreadable
            }
            Self.advance(
                &end, key, members[key]!, batch, step, group: group,
                committed: key.scope.input.flatMap { committed[$0] })
            return end
        }
        for end in ends {
            for (i, outcome) in end.outcomes { outcomes[i] = outcome }
        }
        unreadableOnDisk = zip(order, ends).filter(\.1.unreadable).map(\.0)
        uncarried = ends.reduce(0) { $0 + $1.uncarried }
        // 3. What each page ends with goes back into memory (and, once its latest layout is acknowledged, to disk).
        for (key, end) in zip(order, ends) {
            pages.settled(end.page ?? LayoutStore.Page(layout: nil, position: nil), for: key, moved: end.moved)
        }
        return outcomes
    }

    /// What a batch leaves one page with: its layout and position (nil: nothing known yet), whether one of the
    /// batch's messages moved it, and whether its stored layout could not be read.
    struct PageEnd: Sendable {
        var page: LayoutStore.Page?
        /// What each of the page's messages (by batch index) does to it.
        var outcomes: [(Int, Outcome)] = []
        var moved = false
        var unreadable = false
        /// Steps dropped from what the page carries (`CarriedStep.maxBytes`).
        var uncarried = 0
    }

    /// Takes one page's messages of the batch (`members`, in order) from where `end` stands: a record carries and
    /// diffs against the page's layout, a tombstone clears it, an input at or before its position is redelivered.
    /// Each step is carried with the page, for `group`, until its input is `committed`.
    static func advance(
        _ end: inout PageEnd, _ key: PageKey, _ members: [Int],
        _ batch: [(message: KafkaMessage, record: RecordOutline?)], _ step: PageStep, group: String,
        committed: Int64?
    ) {
        var layout = end.page?.layout
        var position = end.page?.position
        var steps = (end.page?.steps ?? []).filter { s in
            s.group == group && committed.map { s.offset >= $0 } ?? true
        }
        func carry(_ offset: Int64, _ changeSet: [UInt8]?) {
            let next = CarriedStep(group: group, offset: offset, changeSet: changeSet)
            let bounded = CarriedStep.bounded(steps + [next])
            steps = bounded.kept
            end.uncarried += bounded.dropped
        }
        for i in members {
            let offset = batch[i].message.offset
            if let position, offset <= position {
                end.outcomes.append(
                    (
                        i,
                        .redelivered(
                            page: key.page, position: position,
                            record: batch[i].record.map { step.carried($0, after: layout).bytes },
                            republish: steps.filter { $0.offset == offset })
                    ))
                continue
            }
            position = offset
            end.moved = true
            guard let record = batch[i].record else {
                layout = nil
                carry(offset, nil)
                end.outcomes.append((i, .cleared(page: key.page, carried: steps)))
                continue
            }
            switch step.change(after: layout, record: record, key: key.page) {
            case .next(let next):
                carry(offset, next.changeSet.bytes)
                end.outcomes.append(
                    (
                        i,
                        .changed(
                            Step(record: next.record, pageKey: key.page, changeSet: next.changeSet, carried: steps))
                    ))
                layout = next.layout
            case .unchanged(let carried):
                // `layout` is non-nil here: only a page with a layout can be unchanged.
                let latest = layout?.bytes ?? carried.bytes
                end.outcomes.append(
                    (
                        i,
                        .unchanged(
                            Unchanged(record: carried.bytes, pageKey: key.page, latest: latest, carried: steps))
                    ))
            }
        }
        end.page = LayoutStore.Page(layout: layout, position: position, steps: steps)
    }

    /// The page key: the message key, or the page's content path and canonical navigation state.
    func pageKey(_ message: KafkaMessage, _ record: RecordOutline) -> String? {
        switch settings.pageKey {
        case .messageKey:
            return Self.page(keyedBy: message)
        case .response:
            // Only the record's `page` member is read (a few hundred bytes).
            guard let m = record.pageMember, let doc = record.read(member: m) else { return nil }
            let page = doc.root
            let path = doc.value(page, Self.contentPath).flatMap(doc.string)
            let state = doc.value(page, Self.canonical).flatMap { doc.value($0, Self.target) }.flatMap(doc.string)
            guard path != nil || state != nil else { return nil }
            return (path ?? "") + "|" + (state ?? "")
        }
    }

    /// The page a message's key names; none for a message without a key or with an empty one (no URL names it:
    /// its record is published, and no change set or latest layout made).
    static func page(keyedBy message: KafkaMessage) -> String? {
        guard let key = message.key, !key.isEmpty else { return nil }
        return String(decoding: key, as: UTF8.self)
    }

    static let contentPath = JSONKey(Wire.Key.contentPath)
    static let canonical = JSONKey(Wire.Key.canonical)
    static let target = JSONKey(Wire.Key.target)
}
