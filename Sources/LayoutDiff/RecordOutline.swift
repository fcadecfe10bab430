public import LayoutJSON
public import LayoutKit

/// A layout record read back from its bytes: top-level members, sections and rows as ranges of one document.
public struct RecordOutline: Sendable {
    /// One object member: key and value nodes.
    public struct Member: Sendable {
        public let key: Int
        public let value: Int
    }

    /// One section: its id, every member (in order) and its rows.
    public struct Section: Sendable {
        /// The section object's node.
        public let node: Int
        /// The `id` string node.
        public let id: Int
        public let members: [Member]
        /// Position of `index` and `rows` in `members`.
        public let indexMember: Int
        public let rowsMember: Int
        /// Position of `path` in `members` (records from version 2 on have one).
        public let pathMember: Int?
        public let rows: [Row]
    }

    /// One row: its node and its `id` string node.
    public struct Row: Sendable {
        public let node: Int
        public let id: Int
    }

    public let document: JSONDocument
    /// Top-level members in order; `sectionsMember` is the position of `sections`.
    public let members: [Member]
    public let sectionsMember: Int
    public let sections: [Section]
    /// The record's content hash.
    public let hash: ContentHash

    /// The record format version this module reads and writes change sets for (`LayoutRecord.formatVersion`).
    public static let formatVersion = Layout.formatVersion

    /// The record that comes before a key's first layout: no page, no sections.
    public static let emptyBytes: [UInt8] = Array(
        #"{"version":\#(formatVersion),"source":null,"page":null,"sections":[],"diagnostics":[]}"#.utf8)

    /// The outline of the empty record.
    public static func empty() -> RecordOutline {
        // The empty record is well-formed by construction.
        try! RecordOutline(bytes: emptyBytes)
    }

    static let reader = JSONReader(maxDepth: 1024)

    /// Reads `bytes` as a layout record.
    public init(bytes: [UInt8]) throws(ChangeSetError) {
        let doc: JSONDocument
        do {
            doc = try Self.reader.read(bytes)
        } catch {
            throw .notALayoutRecord("invalid JSON at byte \(error.offset): \(error.message)")
        }
        try self.init(document: doc)
    }

    /// Outlines an already-read document.
    public init(document doc: JSONDocument) throws(ChangeSetError) {
        guard doc.kind(doc.root) == .object else { throw .notALayoutRecord("the root is not an object") }
        var members: [Member] = []
        var sectionsMember: Int?
        for (k, v) in doc.members(doc.root) {
            if doc.stringEquals(k, Keys.sections) { sectionsMember = members.count }
            members.append(Member(key: k, value: v))
        }
        guard let sectionsMember, doc.kind(members[sectionsMember].value) == .array else {
            throw .notALayoutRecord("no `sections` array")
        }
        var sections: [Section] = []
        sections.reserveCapacity(doc.nodes[members[sectionsMember].value].count.toInt)
        for (n, s) in doc.elements(members[sectionsMember].value).enumerated() {
            sections.append(try Self.section(s, at: n, in: doc))
        }
        self.document = doc
        self.members = members
        self.sectionsMember = sectionsMember
        self.sections = sections
        self.hash = ContentHash(of: doc.bytes)
    }

    private static func section(_ s: Int, at n: Int, in doc: JSONDocument) throws(ChangeSetError) -> Section {
        guard doc.kind(s) == .object else { throw .notALayoutRecord("sections[\(n)] is not an object") }
        var members: [Member] = []
        members.reserveCapacity(doc.nodes[s].count.toInt)
        var id: Int?, index: Int?, rows: Int?, path: Int?
        for (k, v) in doc.members(s) {
            if doc.stringEquals(k, Keys.id) {
                id = v
            } else if doc.stringEquals(k, Keys.path) {
                path = members.count
            } else if doc.stringEquals(k, Keys.index) {
                index = members.count
            } else if doc.stringEquals(k, Keys.rows) {
                rows = members.count
            }
            members.append(Member(key: k, value: v))
        }
        guard let id, doc.kind(id) == .string else { throw .notALayoutRecord("sections[\(n)] has no string `id`") }
        guard let index else { throw .notALayoutRecord("sections[\(n)] has no `index`") }
        guard let rows, doc.kind(members[rows].value) == .array else {
            throw .notALayoutRecord("sections[\(n)] has no `rows` array")
        }
        var rowOutlines: [Row] = []
        rowOutlines.reserveCapacity(doc.nodes[members[rows].value].count.toInt)
        for (r, row) in doc.elements(members[rows].value).enumerated() {
            guard doc.kind(row) == .object, let rid = doc.value(row, JSONKey("id")), doc.kind(rid) == .string else {
                throw .notALayoutRecord("sections[\(n)].rows[\(r)] is not an object with a string `id`")
            }
            rowOutlines.append(Row(node: row, id: rid))
        }
        return Section(
            node: s, id: id, members: members, indexMember: index, rowsMember: rows, pathMember: path, rows: rowOutlines
        )
    }

    /// The record's `source.offset`, when present.
    public var sourceOffset: Int64? {
        let doc = document
        guard let source = doc.value(doc.root, Keys.sourceKey), doc.kind(source) == .object,
            let offset = doc.value(source, Keys.offsetKey)
        else { return nil }
        return doc.int(offset).map(Int64.init)
    }

    /// The record's identity (source offset and content hash).
    public var identity: RecordIdentity { RecordIdentity(offset: sourceOffset, hash: hash) }

    /// A section's id as text.
    public func id(of section: Section) -> String { document.string(section.id) ?? "" }

    /// Approximate bytes held: the record text plus its tape.
    public var footprint: Int { document.bytes.count + document.nodes.count * MemoryLayout<JSONNode>.stride }

    enum Keys {
        static let sections: [UInt8] = Array("sections".utf8)
        static let id: [UInt8] = Array("id".utf8)
        static let index: [UInt8] = Array("index".utf8)
        static let path: [UInt8] = Array("path".utf8)
        static let version: [UInt8] = Array("version".utf8)
        static let rows: [UInt8] = Array("rows".utf8)
        static let attributes: [UInt8] = Array("attributes".utf8)
        static let adaptor: [UInt8] = Array("adaptor".utf8)
        static let sourceKey: JSONKey = "source"
        static let offsetKey: JSONKey = "offset"
    }
}

extension UInt32 {
    @inline(__always) var toInt: Int { Int(self) }
}
