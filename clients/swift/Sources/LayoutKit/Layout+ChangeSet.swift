extension Layout {
    /// A change set, decoded (see schemas/layout-change-set.schema.json): what turns one record of a page into the
    /// next. Apply its bytes with `ChangeSetApplier`; turn it into collection-view updates with `BatchUpdate`.
    public struct ChangeSet: Sendable, Hashable, Codable {
        public var version: Int
        public var kind: String
        /// The page key.
        public var key: String?
        /// The record it applies to; nil for a key's first layout.
        public var base: RecordIdentity?
        public var target: RecordIdentity
        /// Top-level record members that changed (source, page, diagnostics), with their new values.
        public var record: [String: JSONValue]?
        public var sections: ListChanges<Section, SectionUpdate>?
        /// The whole target record, when its top-level members differ in name or order.
        public var replace: Record?
        /// Why a list was replaced whole.
        public var diagnostics: [ChangeDiagnostic]

        public init(
            version: Int, kind: String, key: String? = nil, base: RecordIdentity? = nil, target: RecordIdentity,
            record: [String: JSONValue]? = nil, sections: ListChanges<Section, SectionUpdate>? = nil,
            replace: Record? = nil, diagnostics: [ChangeDiagnostic]
        ) {
            self.version = version
            self.kind = kind
            self.key = key
            self.base = base
            self.target = target
            self.record = record
            self.sections = sections
            self.replace = replace
            self.diagnostics = diagnostics
        }
    }

    /// A record's source offset and content hash (XXH64 of its bytes, 16 hex digits).
    public struct RecordIdentity: Sendable, Hashable, Codable {
        public var offset: Int64?
        public var hash: String

        public init(offset: Int64? = nil, hash: String) {
            self.offset = offset
            self.hash = hash
        }
    }

    /// The changes to one list (sections, or a section's rows), matched by id; or the list replaced whole.
    public struct ListChanges<Item: Sendable & Hashable & Codable, Update: Sendable & Hashable & Codable>: Sendable,
        Hashable, Codable
    {
        /// Old indexes removed.
        public var deletes: [Int]
        public var inserts: [Insert<Item>]
        /// Old index → new index, for items the renderer must move.
        public var moves: [Move]
        public var updates: [Update]
        /// New paths of sections that changed nothing else (sections only).
        public var paths: [PathChange]?
        /// The whole new list, when duplicate ids made matching ambiguous.
        public var replace: [Item]?

        public init(
            deletes: [Int] = [], inserts: [Insert<Item>] = [], moves: [Move] = [], updates: [Update] = [],
            paths: [PathChange]? = nil, replace: [Item]? = nil
        ) {
            self.deletes = deletes
            self.inserts = inserts
            self.moves = moves
            self.updates = updates
            self.paths = paths
            self.replace = replace
        }

        enum CodingKeys: String, CodingKey { case deletes, inserts, moves, updates, paths, replace }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            replace = try c.decodeIfPresent([Item].self, forKey: .replace)
            deletes = try c.decodeIfPresent([Int].self, forKey: .deletes) ?? []
            inserts = try c.decodeIfPresent([Insert<Item>].self, forKey: .inserts) ?? []
            moves = try c.decodeIfPresent([Move].self, forKey: .moves) ?? []
            updates = try c.decodeIfPresent([Update].self, forKey: .updates) ?? []
            paths = try c.decodeIfPresent([PathChange].self, forKey: .paths)
        }
    }

    public struct Insert<Item: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
        /// The new index.
        public var index: Int
        public var item: Item

        enum CodingKeys: String, CodingKey { case index, section, row }

        public init(index: Int, item: Item) {
            self.index = index
            self.item = item
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            index = try c.decode(Int.self, forKey: .index)
            item = try c.decodeIfPresent(Item.self, forKey: .section) ?? c.decode(Item.self, forKey: .row)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(item, forKey: Item.self == Section.self ? .section : .row)
        }
    }

    public struct Move: Sendable, Hashable, Codable {
        public var from: Int
        public var to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    public struct PathChange: Sendable, Hashable, Codable {
        public var index: Int
        public var path: String

        public init(index: Int, path: String) {
            self.index = index
            self.path = path
        }
    }

    /// A section that stayed (matched by id) and changed: its new members when any but `index` and `rows` changed
    /// (`section`, whose `rows` is null), and the changes to its rows.
    public struct SectionUpdate: Sendable, Hashable, Codable {
        public var from: Int
        public var to: Int
        public var id: String
        public var section: SectionHeadChange?
        public var rows: ListChanges<Row, RowUpdate>?

        public init(
            from: Int, to: Int, id: String, section: SectionHeadChange? = nil, rows: ListChanges<Row, RowUpdate>? = nil
        ) {
            self.from = from
            self.to = to
            self.id = id
            self.section = section
            self.rows = rows
        }
    }

    /// A section's new members but its rows (`rows` is null in a change set).
    public struct SectionHeadChange: Sendable, Hashable, Codable {
        public var id: String
        public var type: String?
        public var visible: Bool?
        public var attributes: [String: JSONValue]?
        public var header: SupplementaryView?
        public var footer: SupplementaryView?
        public var supplementary: [String: SupplementaryView]?
        public var placeholder: Placeholder?

        public init(
            id: String, type: String? = nil, visible: Bool? = nil, attributes: [String: JSONValue]? = nil,
            header: SupplementaryView? = nil, footer: SupplementaryView? = nil,
            supplementary: [String: SupplementaryView]? = nil, placeholder: Placeholder? = nil
        ) {
            self.id = id
            self.type = type
            self.visible = visible
            self.attributes = attributes
            self.header = header
            self.footer = footer
            self.supplementary = supplementary
            self.placeholder = placeholder
        }
    }

    public struct RowUpdate: Sendable, Hashable, Codable {
        public var from: Int
        public var to: Int
        public var row: Row

        public init(from: Int, to: Int, row: Row) {
            self.from = from
            self.to = to
            self.row = row
        }
    }

    /// Why a list was replaced whole: `duplicate-ids` at `sections` or `<section id>.rows`.
    public struct ChangeDiagnostic: Sendable, Hashable, Codable {
        public var code: String
        public var path: String
        public var message: String

        public init(code: String, path: String, message: String) {
            self.code = code
            self.path = path
            self.message = message
        }
    }
}
