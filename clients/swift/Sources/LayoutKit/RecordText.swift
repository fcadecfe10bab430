/// A layout record's text read for applying a change set to it: top-level members, and each section's members and
/// rows, as spans of the text.
struct RecordText {
    struct Section {
        var span: JSONText.Span
        var members: [JSONText.Member]
        /// Positions of `index`, `path` and `rows` in `members`.
        var indexMember: Int
        var pathMember: Int?
        var rowsMember: Int
        var rows: [JSONText.Span]
    }

    let text: JSONText
    let members: [JSONText.Member]
    /// Position of `sections` in `members`.
    let sectionsMember: Int
    let sections: [Section]

    /// The record that comes before a key's first layout: no page, no sections.
    static let emptyBytes: [UInt8] = Array(Wire.emptyRecord.utf8)

    init(bytes: [UInt8]) throws(ChangeSetError) {
        do {
            try self.init(try JSONText(bytes, what: "record"))
        } catch {
            // The reader's errors, said of the record.
            if case .invalidChangeSet(let why) = error { throw .notALayoutRecord(why) }
            throw error
        }
    }

    private init(_ text: JSONText) throws(ChangeSetError) {
        guard text.kind(text.root) == .object else { throw .notALayoutRecord("the root is not an object") }
        let members = try text.members(text.root)
        guard let sm = members.firstIndex(where: { text.keyEquals($0.key, Wire.Key.sections) }),
            text.kind(members[sm].value) == .array
        else { throw .notALayoutRecord("no `sections` array") }
        var sections: [Section] = []
        for (n, s) in try text.elements(members[sm].value).enumerated() {
            guard text.kind(s) == .object else { throw .notALayoutRecord("sections[\(n)] is not an object") }
            let sectionMembers = try text.members(s)
            var index: Int?, path: Int?, rows: Int?
            for (k, m) in sectionMembers.enumerated() {
                if index == nil && text.keyEquals(m.key, Wire.Key.index) { index = k }
                if path == nil && text.keyEquals(m.key, Wire.Key.path) { path = k }
                if rows == nil && text.keyEquals(m.key, Wire.Key.rows) { rows = k }
            }
            guard let index else { throw .notALayoutRecord("sections[\(n)] has no `index`") }
            guard let rows, text.kind(sectionMembers[rows].value) == .array else {
                throw .notALayoutRecord("sections[\(n)] has no `rows` array")
            }
            sections.append(
                Section(
                    span: s, members: sectionMembers, indexMember: index, pathMember: path, rowsMember: rows,
                    rows: try text.elements(sectionMembers[rows].value)))
        }
        self.text = text
        self.members = members
        self.sectionsMember = sm
        self.sections = sections
    }
}
