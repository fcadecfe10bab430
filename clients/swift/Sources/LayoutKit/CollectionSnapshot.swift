/// What a collection view shows, by id: its sections and each section's items. `applying(_:dataSource:)` is a model
/// of `UICollectionView.performBatchUpdates`: it refuses a batch UIKit would refuse ("invalid number of items in
/// section ...") and otherwise gives what the view shows afterwards, so a test can check a batch without UIKit.
public struct CollectionSnapshot: Sendable, Hashable, CustomStringConvertible {
    public struct Section: Sendable, Hashable {
        public var id: String
        public var items: [String]

        public init(id: String, items: [String]) {
            self.id = id
            self.items = items
        }
    }

    public var sections: [Section]

    public init(sections: [Section]) { self.sections = sections }

    /// A record's sections and rows.
    public init(_ record: Layout.Record) {
        sections = record.sections.map { Section(id: $0.id, items: $0.rows.map(\.id)) }
    }

    public var description: String {
        sections.map { "\($0.id)[\($0.items.joined(separator: ","))]" }.joined(separator: " ")
    }

    /// A batch UIKit would refuse, and why.
    public struct InvalidBatch: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// What the view shows after `batch`, given the data source now answers with `dataSource`. UIKit's rules:
    /// deletes, reloads and move sources name old places, inserts and move destinations new ones, each place once;
    /// no item operation in an inserted, deleted or reloaded section (nor, stricter than UIKit, whose animations
    /// misbehave there, in a moved one: `BatchUpdate` never asks for it); no item both moved and reloaded; and every
    /// section's new count is its old count less deletes and moves out, plus inserts and moves in. Items and
    /// sections not named keep their relative order and fill the places left; a reloaded one shows the new data.
    public func applying(_ batch: BatchUpdate, dataSource new: CollectionSnapshot) throws(InvalidBatch)
        -> CollectionSnapshot
    {
        if batch.reloadsAll { return new }
        var check = BatchCheck(old: self, new: new, batch: batch)
        try check.placeSections()
        try check.placeItems()
        try check.countItems()
        return try check.shown()
    }
}
