public import LayoutJSON

/// Splits a section's rows into groups by the value at a key path (NXFetchedCollectionViewDataSource's section key path).
public struct RowGrouper: Sendable, Equatable {
    /// How groups are ordered.
    public enum Order: String, Sendable {
        /// In the order each value first appears.
        case firstAppearance
        /// By value: numbers numerically, then strings in byte order; rows without a value last.
        case value
    }

    public var path: FieldPath { didSet { pathText = path.description } }
    /// The path as text (what the record's `group.by` shows), worked out once.
    public private(set) var pathText: String
    public var order: Order

    public init(path: FieldPath, order: Order) {
        self.path = path
        self.pathText = path.description
        self.order = order
    }

    /// The groups for `rows`; each row lands in exactly one group.
    public func group(_ rows: [AdaptedRow], in doc: JSONDocument) -> [RowGroup] {
        var groups: [RowGroup] = []
        var indexByKey: [[UInt8]: Int] = [:]
        let nullJSON = Array("null".utf8)
        for (n, row) in rows.enumerated() {
            let node = path.resolve(in: doc, from: row.node)
            let json: [UInt8]
            let label: String
            if let node, doc.kind(node) != .object, doc.kind(node) != .array, doc.kind(node) != .null {
                json = Array(doc.raw(node))
                label = doc.kind(node) == .string ? (doc.string(node) ?? "") : String(decoding: json, as: UTF8.self)
            } else {
                json = nullJSON
                label = "null"
            }
            let key = doc.kind(node ?? 0) == .string && node != nil ? doc.decodedStringBytes(node!) : json
            if let g = indexByKey[key] {
                groups[g].rows.append(n)
            } else {
                indexByKey[key] = groups.count
                groups.append(RowGroup(valueJSON: json, label: label, rows: [n]))
            }
        }
        if order == .value {
            groups.sort { a, b in
                let aNull = a.valueJSON == nullJSON, bNull = b.valueJSON == nullJSON
                if aNull != bNull { return bNull }
                let an = Double(a.label), bn = Double(b.label)
                if let an, let bn, an != bn { return an < bn }
                if (an == nil) != (bn == nil) { return an != nil }
                return Array(a.label.utf8).lexicographicallyPrecedes(Array(b.label.utf8))
            }
        }
        return groups
    }
}
