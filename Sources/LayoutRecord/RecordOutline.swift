public import LayoutJSON
public import LayoutKit

/// A layout record's bytes and where its parts sit in them: top-level members, sections with their members, rows
/// with their ids, as byte ranges. The compiler notes it while it writes the record (`LayoutRecordWriter`), so
/// nothing it wrote is read back; a record from anywhere else (a topic, a file) is read once into the same shape.
public struct RecordOutline: Sendable, Equatable {
    /// One object member: its key token (quotes included) and its value.
    public struct Member: Sendable, Equatable {
        public var key: Range<Int>
        public var value: Range<Int>
    }

    /// One section: the object, its `id` token, where its members (in order) and rows are in the outline's
    /// `sectionMembers` and `rows` (one array each for the whole record: a few allocations per record, not per
    /// section).
    public struct Section: Sendable, Equatable {
        public var node: Range<Int>
        /// The `id` string token, quotes included.
        public var id: Range<Int>
        public var memberRange: Range<Int>
        public var rowRange: Range<Int>
        /// Position of `index` and `rows` among the section's members.
        public var indexMember: Int
        public var rowsMember: Int
        /// Position of `path` in `members` (records from version 2 on have one).
        public var pathMember: Int?
        /// Position of `type` and `attributes` in `members`, when present.
        public var typeMember: Int?
        public var attributesMember: Int?
        /// How many members and rows it has.
        public var memberCount: Int { memberRange.count }
        public var rowCount: Int { rowRange.count }
    }

    /// One row: the object and its `id` string token.
    public struct Row: Sendable, Equatable {
        public var node: Range<Int>
        public var id: Range<Int>
    }

    /// The record as published.
    public internal(set) var bytes: [UInt8]
    /// Top-level members in order; `sectionsMember` is the position of `sections`.
    public internal(set) var members: [Member]
    public let sectionsMember: Int
    /// Positions of `version` and `page` in `members`, when present.
    public let versionMember: Int?
    public let pageMember: Int?
    public internal(set) var sections: [Section]
    /// Every section's members, then every section's rows, in record order.
    public internal(set) var sectionMembers: [Member]
    public internal(set) var rows: [Row]
    /// The record's `source.offset`, when present.
    public let sourceOffset: Int64?
    /// The record's content hash (computed when asked: a plain compile never needs it).
    public var hash: ContentHash { ContentHash(of: bytes) }

    init(
        bytes: [UInt8], members: [Member], sectionsMember: Int, versionMember: Int?, pageMember: Int?,
        sections: [Section], sectionMembers: [Member], rows: [Row], sourceOffset: Int64?
    ) {
        self.bytes = bytes
        self.members = members
        self.sectionsMember = sectionsMember
        self.versionMember = versionMember
        self.pageMember = pageMember
        self.sections = sections
        self.sectionMembers = sectionMembers
        self.rows = rows
        self.sourceOffset = sourceOffset
    }

    /// The record format version this module reads and writes change sets for (`LayoutRecord.formatVersion`).
    public static let formatVersion = Wire.formatVersion

    /// The record that comes before a key's first layout: no page, no sections.
    public static let emptyBytes: [UInt8] = Array(Wire.emptyRecord.utf8)

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

    /// Outlines an already-read record.
    public init(document doc: JSONDocument) throws(ChangeSetError) {
        guard doc.kind(doc.root) == .object else { throw .notALayoutRecord("the root is not an object") }
        var members: [Member] = []
        var sectionsMember: Int?, sectionsNode = 0, versionMember: Int?, pageMember: Int?, source: Int?
        for (k, v) in doc.members(doc.root) {
            if doc.stringEquals(k, Keys.sections) {
                sectionsMember = members.count
                sectionsNode = v
            } else if versionMember == nil, doc.stringEquals(k, Keys.version) {
                versionMember = members.count
            } else if pageMember == nil, doc.stringEquals(k, Keys.page) {
                pageMember = members.count
            } else if source == nil, doc.stringEquals(k, Keys.source) {
                source = v
            }
            members.append(Member(key: doc.nodes[k].range, value: doc.nodes[v].range))
        }
        guard let sectionsMember, doc.kind(sectionsNode) == .array else {
            throw .notALayoutRecord("no `sections` array")
        }
        var sections: [Section] = []
        sections.reserveCapacity(doc.nodes[sectionsNode].count.toInt)
        var sectionMembers: [Member] = [], rows: [Row] = []
        for (n, s) in doc.elements(sectionsNode).enumerated() {
            sections.append(try Self.section(s, at: n, in: doc, &sectionMembers, &rows))
        }
        var offset: Int64?
        if let source, doc.kind(source) == .object, let o = doc.value(source, Self.offsetKey) {
            offset = doc.int(o).map(Int64.init)
        }
        self.init(
            bytes: doc.bytes, members: members, sectionsMember: sectionsMember, versionMember: versionMember,
            pageMember: pageMember, sections: sections, sectionMembers: sectionMembers, rows: rows, sourceOffset: offset
        )
    }

    private static func section(
        _ s: Int, at n: Int, in doc: JSONDocument, _ all: inout [Member], _ allRows: inout [Row]
    ) throws(ChangeSetError) -> Section {
        guard doc.kind(s) == .object else { throw .notALayoutRecord("sections[\(n)] is not an object") }
        let first = all.count
        var members = 0
        var id: Int?, index: Int?, rows: Int?, rowsNode: Int?, path: Int?, type: Int?, attributes: Int?
        for (k, v) in doc.members(s) {
            if doc.stringEquals(k, Keys.id) {
                id = v
            } else if doc.stringEquals(k, Keys.path) {
                path = members
            } else if doc.stringEquals(k, Keys.index) {
                index = members
            } else if doc.stringEquals(k, Keys.rows) {
                rows = members
                rowsNode = v
            } else if type == nil, doc.stringEquals(k, Keys.type) {
                type = members
            } else if attributes == nil, doc.stringEquals(k, Keys.attributes) {
                attributes = members
            }
            all.append(Member(key: doc.nodes[k].range, value: doc.nodes[v].range))
            members += 1
        }
        guard let id, doc.kind(id) == .string else { throw .notALayoutRecord("sections[\(n)] has no string `id`") }
        guard let index else { throw .notALayoutRecord("sections[\(n)] has no `index`") }
        guard let rows, let rowsNode, doc.kind(rowsNode) == .array else {
            throw .notALayoutRecord("sections[\(n)] has no `rows` array")
        }
        let firstRow = allRows.count
        for (r, row) in doc.elements(rowsNode).enumerated() {
            guard doc.kind(row) == .object, let rid = doc.value(row, Self.idKey), doc.kind(rid) == .string else {
                throw .notALayoutRecord("sections[\(n)].rows[\(r)] is not an object with a string `id`")
            }
            allRows.append(Row(node: doc.nodes[row].range, id: doc.nodes[rid].range))
        }
        return Section(
            node: doc.nodes[s].range, id: doc.nodes[id].range, memberRange: first..<all.count,
            rowRange: firstRow..<allRows.count, indexMember: index, rowsMember: rows, pathMember: path,
            typeMember: type,
            attributesMember: attributes)
    }

    /// The bytes of `range` (a member, section, row or id as written).
    @inline(__always) public func raw(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

    /// The record's identity (source offset and content hash).
    public var identity: RecordIdentity { RecordIdentity(offset: sourceOffset, hash: hash) }

    /// A section's id as text.
    public func id(of section: Section) -> String { Self.text(bytes[section.id]) ?? "" }

    /// A section's `type`, when it is a string.
    public func type(of section: Section) -> String? {
        section.typeMember.flatMap { Self.text(bytes[member($0, of: section).value]) }
    }

    /// Member `m` of `section` (0 is its first).
    @inline(__always) public func member(_ m: Int, of section: Section) -> Member {
        sectionMembers[section.memberRange.lowerBound + m]
    }

    /// Row `r` of `section` (0 is its first).
    @inline(__always) public func row(_ r: Int, of section: Section) -> Row { rows[section.rowRange.lowerBound + r] }

    /// The id tokens of `section`'s rows, in order.
    public func rowIDs(of section: Section) -> [Range<Int>] { rows[section.rowRange].map(\.id) }

    /// The value of top-level member `m` read on its own (a small part of the record, e.g. `page`).
    public func read(member m: Int) -> JSONDocument? { try? Self.reader.read(Array(bytes[members[m].value])) }

    /// The text of a JSON string token.
    static func text(_ token: ArraySlice<UInt8>) -> String? {
        guard let doc = try? reader.read(Array(token)) else { return nil }
        return doc.string(doc.root)
    }

    /// Approximate bytes held: the record text plus its outline.
    public var footprint: Int {
        bytes.count + (members.count + sectionMembers.count) * MemoryLayout<Member>.stride + sections.count
            * MemoryLayout<Section>.stride + rows.count * MemoryLayout<Row>.stride
    }

    /// `bytes` with each of `replacements` (ranges of the record, ascending, not overlapping) put in place of its
    /// range, every part of the outline moved to where it lands.
    public func replacing(_ replacements: [(range: Range<Int>, with: [UInt8])]) -> RecordOutline {
        guard !replacements.isEmpty else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + replacements.reduce(0) { $0 + $1.with.count - $1.range.count })
        var at = 0
        for r in replacements {
            out.append(contentsOf: bytes[at..<r.range.lowerBound])
            out.append(contentsOf: r.with)
            at = r.range.upperBound
        }
        out.append(contentsOf: bytes[at...])
        // A position moves by what the replacements that end at or before it added.
        let ends = replacements.map(\.range.upperBound)
        var added: [Int] = []
        var sum = 0
        for r in replacements {
            sum += r.with.count - r.range.count
            added.append(sum)
        }
        func moved(_ p: Int) -> Int {
            var lo = 0, hi = ends.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if ends[mid] <= p { lo = mid + 1 } else { hi = mid }
            }
            return lo == 0 ? p : p + added[lo - 1]
        }
        func moved(_ r: Range<Int>) -> Range<Int> { moved(r.lowerBound)..<moved(r.upperBound) }
        func moved(_ m: Member) -> Member { Member(key: moved(m.key), value: moved(m.value)) }
        var copy = self
        copy.bytes = out
        copy.members = members.map(moved)
        copy.sections = sections.map { s in
            var s = s
            s.node = moved(s.node)
            s.id = moved(s.id)
            return s
        }
        copy.sectionMembers = sectionMembers.map(moved)
        copy.rows = rows.map { Row(node: moved($0.node), id: moved($0.id)) }
        return copy
    }

    static let idKey = JSONKey(Wire.Key.id)
    static let offsetKey = JSONKey(Wire.Key.offset)

    /// The wire's member names as bytes, for comparing key tokens.
    enum Keys {
        static let sections = bytes(Wire.Key.sections)
        static let id = bytes(Wire.Key.id)
        static let index = bytes(Wire.Key.index)
        static let path = bytes(Wire.Key.path)
        static let type = bytes(Wire.Key.type)
        static let version = bytes(Wire.Key.version)
        static let page = bytes(Wire.Key.page)
        static let source = bytes(Wire.Key.source)
        static let rows = bytes(Wire.Key.rows)
        static let attributes = bytes(Wire.Key.attributes)

        static func bytes(_ s: StaticString) -> [UInt8] {
            Array(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }
    }
}

extension UInt32 {
    @inline(__always) var toInt: Int { Int(self) }
}
