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

    /// How values are read before grouping.
    public enum ValueType: String, Sendable, CaseIterable {
        /// By their JSON type: `"1"` and `1` are two groups.
        case auto
        /// Every scalar by its text: `"1"` and `1` are one group, whose value is the string `"1"`.
        case string
        /// Numbers and strings that spell a JSON number, by value: `"5"`, `5` and `5.0` are one group.
        case number
        /// `true`/`false` and the strings `"true"`/`"false"`.
        case boolean
        /// RFC 3339 date-time strings, by the instant they name: two offsets of one instant are one group.
        case datetime

        /// The type with its article, for messages ("a number").
        public var article: String {
            switch self {
            case .auto: return "a value"
            case .string: return "a string"
            case .number: return "a number"
            case .boolean: return "a boolean"
            case .datetime: return "a date-time"
            }
        }
    }

    public var path: FieldPath { didSet { pathText = path.description } }
    /// The path as text (what the record's `group.by` shows), worked out once.
    public private(set) var pathText: String
    public var order: Order
    /// When the value at `path` is an object (a to-one relationship), the fields tried in order for its identity;
    /// the object itself becomes the group's value. Objects with none of them are told apart by their JSON.
    public var identityPaths: [FieldPath]
    /// The declared type of the values (`auto`: their JSON type). Values not of a declared type join the `null` group.
    public var valueType: ValueType

    /// A grouper by the value at `path`; related objects are told apart by `identityPaths` (default `id`, then
    /// `repositoryId`).
    public init(path: FieldPath, order: Order, identityPaths: [FieldPath]? = nil, valueType: ValueType = .auto) {
        self.path = path
        self.pathText = path.description
        self.order = order
        self.identityPaths = identityPaths ?? [.known("id"), .known("repositoryId")]
        self.valueType = valueType
    }

    /// A declared type's reading of `node`: the grouping key, the group's value as JSON and its label; nil when the
    /// value is not of the type.
    private func typed(_ node: Int, in doc: JSONDocument) -> (key: [UInt8], json: [UInt8], label: String)? {
        let kind = doc.kind(node)
        let text: String
        switch kind {
        case .string: text = doc.string(node) ?? ""
        case .number, .true, .false: text = String(decoding: doc.raw(node), as: UTF8.self)
        default: return nil
        }
        switch valueType {
        case .auto:
            return nil
        case .string:
            let json = kind == .string ? Array(doc.raw(node)) : Array("\"\(text)\"".utf8)
            return ([Self.stringTag] + Array(text.utf8), json, text)
        case .number:
            guard kind == .number || (kind == .string && Self.spellsJSONNumber(text)), let d = Double(text),
                d.isFinite
            else { return nil }
            return ([Self.otherTag] + Array(d.description.utf8), Array(text.utf8), text)
        case .boolean:
            guard text == "true" || text == "false" else { return nil }
            return ([Self.otherTag] + Array(text.utf8), Array(text.utf8), text)
        case .datetime:
            guard kind == .string, let instant = RFC3339Instant(text) else { return nil }
            return (
                [Self.otherTag] + Array("\(instant.seconds).\(instant.nanoseconds)".utf8), Array(doc.raw(node)), text
            )
        }
    }

    /// Whether `text` is a number as JSON spells it (`-12.5e3`; not `0x1A`, `inf` or ` 5`).
    public static func spellsJSONNumber(_ text: String) -> Bool {
        var b = Substring(text).utf8[...]
        func digits() -> Int {
            var n = 0
            while let c = b.first, c >= 0x30, c <= 0x39 {
                b.removeFirst()
                n += 1
            }
            return n
        }
        if b.first == UInt8(ascii: "-") { b.removeFirst() }
        if b.first == UInt8(ascii: "0") { b.removeFirst() } else if digits() == 0 { return false }
        if b.first == UInt8(ascii: ".") {
            b.removeFirst()
            if digits() == 0 { return false }
        }
        if b.first == UInt8(ascii: "e") || b.first == UInt8(ascii: "E") {
            b.removeFirst()
            if b.first == UInt8(ascii: "+") || b.first == UInt8(ascii: "-") { b.removeFirst() }
            if digits() == 0 { return false }
        }
        return b.isEmpty
    }

    /// Key prefixes that keep values of different JSON types apart (`"1"` and `1` are two groups).
    private static let stringTag: UInt8 = 0x73, otherTag: UInt8 = 0x6A, objectTag: UInt8 = 0x6F

    /// The identity of a related object: the first identity path with a string or number.
    private func identity(of node: Int, in doc: JSONDocument) -> String? {
        for p in identityPaths {
            guard let v = p.resolve(in: doc, from: node) else { continue }
            switch doc.kind(v) {
            case .string: if let s = doc.string(v), !s.isEmpty { return s }
            case .number: return String(decoding: doc.raw(v), as: UTF8.self)
            default: continue
            }
        }
        return nil
    }

    /// The groups for `rows`; each row lands in exactly one group.
    public func group(_ rows: [AdaptedRow], in doc: JSONDocument) -> [RowGroup] {
        var mismatched = 0
        return group(rows, in: doc, mismatched: &mismatched)
    }

    /// The groups for `rows`; `mismatched` counts the rows whose value is not of the declared `valueType` (they join
    /// the `null` group).
    public func group(_ rows: [AdaptedRow], in doc: JSONDocument, mismatched: inout Int) -> [RowGroup] {
        var groups: [RowGroup] = []
        // Keyed by a type tag and the decoded text for strings, the JSON text for other scalars and an object's
        // identity; the group's JSON and label are made once, by its first row.
        var indexByKey: [[UInt8]: Int] = [:]
        var key: [UInt8] = []
        for (n, row) in rows.enumerated() {
            let node = path.resolve(in: doc, from: row.node).flatMap { doc.kind($0) == .null ? nil : $0 }
            if valueType != .auto {
                // A declared type: one reading per value; values not of the type join the null group.
                let typedValue = node.flatMap { typed($0, in: doc) }
                if node != nil && typedValue == nil { mismatched += 1 }
                let (k, json, label) = typedValue ?? (Self.nullJSON, Self.nullJSON, "null")
                if let g = indexByKey[k] {
                    groups[g].rows.append(n)
                } else {
                    indexByKey[k] = groups.count
                    groups.append(RowGroup(valueJSON: json, label: label, rows: [n]))
                }
                continue
            }
            let identity = groupKey(of: node, in: doc, into: &key)
            if let g = indexByKey[key] {
                groups[g].rows.append(n)
                continue
            }
            indexByKey[key] = groups.count
            groups.append(firstGroup(of: node, identity: identity, row: n, in: doc))
        }
        quoteAmbiguousLabels(&groups)
        if order == .value { sortByValue(&groups) }
        return groups
    }

    static let nullJSON = Array("null".utf8)

    /// Writes the grouping key of `node` (nil: the row has no value) into `key`; returns an object's identity.
    private func groupKey(of node: Int?, in doc: JSONDocument, into key: inout [UInt8]) -> String? {
        key.removeAll(keepingCapacity: true)
        guard let node else {
            key.append(contentsOf: Self.nullJSON)
            return nil
        }
        let token = doc.nodes[node]
        switch token.kind {
        case .string:
            key.append(Self.stringTag)
            if token.flags & JSONNode.Flags.escaped == 0 {
                key.append(contentsOf: doc.bytes[Int(token.start) + 1..<Int(token.end) - 1])
            } else {
                key.append(contentsOf: doc.decodedStringBytes(node))
            }
        case .object:
            key.append(Self.objectTag)
            let identity = self.identity(of: node, in: doc)
            key.append(contentsOf: identity.map { Array($0.utf8) } ?? Array(doc.raw(node)))
            return identity
        case .number:
            // One number, however spelled (1, 1.0, 1e0): one group.
            key.append(Self.otherTag)
            if let d = doc.double(node), d.isFinite {
                key.append(contentsOf: d.description.utf8)
            } else {
                key.append(contentsOf: doc.raw(node))
            }
        default:
            key.append(Self.otherTag)
            key.append(contentsOf: doc.raw(node))
        }
        return nil
    }

    /// The group a value's first row opens: its JSON and its label.
    private func firstGroup(of node: Int?, identity: String?, row n: Int, in doc: JSONDocument) -> RowGroup {
        guard let node else { return RowGroup(valueJSON: Self.nullJSON, label: "null", rows: [n]) }
        let json = Array(doc.raw(node))
        let label: String
        switch doc.kind(node) {
        case .string: label = doc.string(node) ?? ""
        case .object: label = identity ?? String(decoding: json, as: UTF8.self)
        default: label = String(decoding: json, as: UTF8.self)
        }
        return RowGroup(valueJSON: json, label: label, rows: [n])
    }

    /// A string that reads like another group's label (`"1"` beside `1`, `"null"` beside null) shows its quotes.
    private func quoteAmbiguousLabels(_ groups: inout [RowGroup]) {
        guard groups.count > 1 else { return }
        var labels: [String: Int] = [:]
        for g in groups { labels[g.label, default: 0] += 1 }
        for i in groups.indices where groups[i].isString && labels[groups[i].label]! > 1 {
            groups[i].label = String(decoding: groups[i].valueJSON, as: UTF8.self)
        }
    }

    /// Orders groups by value: numbers, then date-times by instant, then other text; null last.
    private func sortByValue(_ groups: inout [RowGroup]) {
        // Each group's value is read as a number and as a date-time once, not at every comparison.
        let keys = groups.map { g in
            (
                isNull: g.valueJSON == Self.nullJSON, number: g.valueJSON.first == 0x7B ? nil : Double(g.label),
                instant: RFC3339Instant(g.label)
            )
        }
        let sorted = groups.indices.sorted { i, j in
            let a = keys[i], b = keys[j]
            if a.isNull != b.isNull { return b.isNull }
            if let an = a.number, let bn = b.number, an != bn { return an < bn }
            if (a.number == nil) != (b.number == nil) { return a.number != nil }
            // Date-times by the instant they name, whatever their offsets; before other strings.
            if let at = a.instant, let bt = b.instant, at != bt { return at < bt }
            if (a.instant == nil) != (b.instant == nil) { return a.instant != nil }
            if groups[i].label != groups[j].label {
                return groups[i].label.utf8.lexicographicallyPrecedes(groups[j].label.utf8)
            }
            // The same text as a number and as a string: the number first.
            return !groups[i].isString && groups[j].isString
        }
        groups = sorted.map { groups[$0] }
    }
}
