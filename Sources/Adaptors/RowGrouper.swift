public import LayoutJSON

/// Splits a section's rows into groups by the value at a key path (NXFetchedCollectionViewDataSource's section key path).
public struct RowGrouper: Sendable, Equatable {
    /// How groups are ordered.
    public enum Order: String, Sendable {
        /// In the order each value first appears.
        case firstAppearance
        /// By value: numbers numerically, then RFC 3339 date-times chronologically (across offsets), then other
        /// strings in byte order; rows without a value last.
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
        // Keyed by the decoded text for strings and the JSON text for other scalars (both borrowed from the
        // document where possible); the group's JSON and label are made once, by its first row.
        var indexByKey: [ArraySlice<UInt8>: Int] = [:]
        let nullJSON = Array("null".utf8)
        for (n, row) in rows.enumerated() {
            let node = path.resolve(in: doc, from: row.node)
            let scalar = node.flatMap {
                doc.kind($0) != .object && doc.kind($0) != .array && doc.kind($0) != .null ? $0 : nil
            }
            let key: ArraySlice<UInt8>
            if let scalar {
                let token = doc.nodes[scalar]
                if token.kind == .string {
                    key =
                        token.flags & JSONNode.Flags.escaped == 0
                        ? doc.bytes[Int(token.start) + 1..<Int(token.end) - 1] : doc.decodedStringBytes(scalar)[...]
                } else {
                    key = doc.raw(scalar)
                }
            } else {
                key = nullJSON[...]
            }
            if let g = indexByKey[key] {
                groups[g].rows.append(n)
                continue
            }
            indexByKey[key] = groups.count
            if let scalar {
                let json = Array(doc.raw(scalar))
                let label =
                    doc.kind(scalar) == .string ? (doc.string(scalar) ?? "") : String(decoding: json, as: UTF8.self)
                groups.append(RowGroup(valueJSON: json, label: label, rows: [n]))
            } else {
                groups.append(RowGroup(valueJSON: nullJSON, label: "null", rows: [n]))
            }
        }
        if order == .value {
            // Each group's value is read as a number and as a date-time once, not at every comparison.
            let keys = groups.map { g in
                (isNull: g.valueJSON == nullJSON, number: Double(g.label), instant: RFC3339Instant(g.label))
            }
            let sorted = groups.indices.sorted { i, j in
                let a = keys[i], b = keys[j]
                if a.isNull != b.isNull { return b.isNull }
                if let an = a.number, let bn = b.number, an != bn { return an < bn }
                if (a.number == nil) != (b.number == nil) { return a.number != nil }
                // Date-times by the instant they name, whatever their offsets; before other strings.
                if let at = a.instant, let bt = b.instant, at != bt { return at < bt }
                if (a.instant == nil) != (b.instant == nil) { return a.instant != nil }
                return groups[i].label.utf8.lexicographicallyPrecedes(groups[j].label.utf8)
            }
            groups = sorted.map { groups[$0] }
        }
        return groups
    }
}
