import Adaptors
public import ContentTree
public import LayoutJSON
import LayoutKit

/// Serialises a layout record to compact JSON, copying models byte-for-byte from the response.
public struct LayoutRecordWriter: Sendable {
    public init() {}

    /// The record as one line of JSON (no trailing newline).
    public func write(_ record: LayoutRecord) -> [UInt8] {
        write(source: record.source, page: record.page, document: record.document) { section in
            for s in record.sections { section(s.head, s.rows) }
            return record.diagnostics
        }.bytes
    }

    /// A record written as its sections are made: `sections` passes each section to the function it is given, in
    /// order, and returns the record's diagnostics. Where every member, section and row lands is noted on the way:
    /// the outline the change sets are made from, with nothing read back.
    public func write(
        source: RecordSource?, page: PageFacts, document doc: JSONDocument,
        sections: (_ section: (SectionHead, [LayoutRow]) -> Void) -> [Diagnostic]
    ) -> RecordOutline {
        var members: [RecordOutline.Member] = []
        members.reserveCapacity(5)
        var outlines: [RecordOutline.Section] = []
        var sectionMembers: [RecordOutline.Member] = [], rows: [RecordOutline.Row] = []
        // Room for what assembler responses make (the 45 KB sample: 131 section members, 24 rows), so they rarely grow.
        sectionMembers.reserveCapacity(doc.bytes.count / 256 + 16)
        rows.reserveCapacity(doc.bytes.count / 1024 + 8)
        let bytes = JSONWriter.bytes(capacity: doc.bytes.count + doc.bytes.count / 4 + 1024) { w in
            w.beginObject()
            members.append(w.member(Wire.Key.version) { $0.int(LayoutRecord.formatVersion) })
            members.append(
                w.member(Wire.Key.source) { w in
                    if let s = source { writeSource(s, &w) } else { w.null() }
                })
            members.append(w.member(Wire.Key.page) { writePage(page, doc, &$0) })
            var diagnostics: [Diagnostic] = []
            members.append(
                w.member(Wire.Key.sections) { w in
                    w.beginArray()
                    diagnostics = sections { head, items in
                        outlines.append(writeSection(head, items, doc, &w, &sectionMembers, &rows))
                    }
                    w.endArray()
                })
            members.append(
                w.member(Wire.Key.diagnostics) { w in
                    w.beginArray()
                    for d in diagnostics { writeDiagnostic(d, &w) }
                    w.endArray()
                })
            w.endObject()
        }
        return RecordOutline(
            bytes: bytes, members: members, sectionsMember: 3, versionMember: 0, pageMember: 2, sections: outlines,
            sectionMembers: sectionMembers, rows: rows, sourceOffset: source?.offset)
    }

    private func writeSource(_ s: RecordSource, _ w: inout JSONWriter) {
        w.beginObject()
        if let v = s.file { w.key(Wire.Key.file); w.string(v) }
        if let v = s.topic { w.key(Wire.Key.topic); w.string(v) }
        if let v = s.partition { w.key(Wire.Key.partition); w.int(v) }
        if let v = s.offset { w.key(Wire.Key.offset); w.int(Int(v)) }
        if let v = s.timestampMs { w.key(Wire.Key.timestamp); w.int(Int(v)) }
        if let v = s.key { w.key(Wire.Key.key); w.string(v) }
        if let v = s.origin { w.key(Wire.Key.origin); w.string(v) }
        w.endObject()
    }

    private func writePage(_ p: PageFacts, _ doc: JSONDocument, _ w: inout JSONWriter) {
        w.beginObject()
        w.key(Wire.Key.type); w.string(orNull: p.type)
        if let v = p.name { w.key(Wire.Key.name); w.string(v) }
        if let v = p.contentPath { w.key(Wire.Key.contentPath); w.string(v) }
        if let v = p.siteRootPath { w.key(Wire.Key.siteRootPath); w.string(v) }
        if let v = p.siteProductionURL { w.key(Wire.Key.siteProductionURL); w.string(v) }
        if let v = p.canonical { w.key(Wire.Key.canonical); writeAction(v, doc, &w) }
        w.endObject()
    }

    /// Writes a section, appending where its members and rows land to `members` and `outlines`.
    private func writeSection(
        _ s: SectionHead, _ rows: [LayoutRow], _ doc: JSONDocument, _ w: inout JSONWriter,
        _ members: inout [RecordOutline.Member], _ outlines: inout [RecordOutline.Row]
    ) -> RecordOutline.Section {
        let start = w.startValue()
        w.beginObject()
        let firstMember = members.count, firstRow = outlines.count
        members.append(w.member(Wire.Key.id) { $0.string(utf8: s.idUTF8) })
        members.append(w.member(Wire.Key.path) { $0.string(s.path) })
        members.append(w.member(Wire.Key.index) { $0.int(s.index) })
        members.append(w.member(Wire.Key.type) { $0.string(s.type) })
        members.append(w.member(Wire.Key.adaptor) { $0.string(s.adaptor) })
        members.append(w.member(Wire.Key.visible) { $0.bool(s.visible) })
        if let p = s.parentUTF8 { members.append(w.member(Wire.Key.parent) { $0.string(utf8: p) }) }
        if let g = s.group {
            members.append(
                w.member(Wire.Key.group) { w in
                    w.beginObject()
                    w.key(Wire.Key.by); w.string(g.by)
                    w.key(Wire.Key.value); w.raw(g.valueJSON)
                    w.endObject()
                })
        }
        var attributesMember: Int?
        if !s.attributes.isEmpty {
            attributesMember = members.count - firstMember
            members.append(w.member(Wire.Key.attributes) { writeAttributes(s.attributes, doc, &$0) })
        }
        var others: [SupplementaryView] = []
        for view in s.supplementary {
            switch view.kind {
            case SupplementaryKind.header: members.append(w.member(Wire.Key.header) { writeView(view, &$0) })
            case SupplementaryKind.footer: members.append(w.member(Wire.Key.footer) { writeView(view, &$0) })
            default: others.append(view)
            }
        }
        if !others.isEmpty {
            members.append(
                w.member(Wire.Key.supplementary) { w in
                    w.beginObject()
                    for view in others {
                        w.key(text: view.kind)
                        writeView(view, &w)
                    }
                    w.endObject()
                })
        }
        if let p = s.placeholder {
            members.append(
                w.member(Wire.Key.placeholder) { w in
                    w.beginObject()
                    w.key(Wire.Key.kind); w.string(p.kind.rawValue)
                    w.key(Wire.Key.renderer); w.string(orNull: p.renderer)
                    if let m = p.message { w.key(Wire.Key.message); w.string(m) }
                    w.endObject()
                })
        }
        let rowsMember = members.count - firstMember
        members.append(
            w.member(Wire.Key.rows) { w in
                w.beginArray()
                // Rows (like attributes and lists below) are read in place: iterating an array copies each element,
                // counting its references.
                rows.withUnsafeBufferPointer { rows in
                    for i in rows.indices { outlines.append(writeRow(rows, i, doc, &w)) }
                }
                w.endArray()
            })
        w.endObject()
        return RecordOutline.Section(
            node: start..<w.position, id: members[firstMember].value, memberRange: firstMember..<members.count,
            rowRange: firstRow..<outlines.count, indexMember: 2, rowsMember: rowsMember, pathMember: 1, typeMember: 3,
            attributesMember: attributesMember)
    }

    private func writeRow(
        _ rows: UnsafeBufferPointer<LayoutRow>, _ i: Int, _ doc: JSONDocument, _ w: inout JSONWriter
    ) -> RecordOutline.Row {
        let start = w.startValue()
        w.beginObject()
        w.key(Wire.Key.id)
        let id = w.position
        w.string(rows[i].id)
        let idEnd = w.position
        w.key(Wire.Key.renderer); w.string(orNull: rows[i].renderer)
        if !rows[i].fallbacks.isEmpty {
            w.key(Wire.Key.fallbacks)
            w.beginArray()
            for name in rows[i].fallbacks { w.string(name) }
            w.endArray()
        }
        w.key(Wire.Key.model); w.raw(rows[i].model, of: doc)
        if let a = rows[i].action { w.key(Wire.Key.action); writeAction(a, doc, &w) }
        if !rows[i].events.isEmpty { writeEvents(rows[i], doc, &w) }
        w.endObject()
        return RecordOutline.Row(node: start..<w.position, id: id..<idEnd)
    }

    private func writeEvents(_ row: LayoutRow, _ doc: JSONDocument, _ w: inout JSONWriter) {
        w.key(Wire.Key.events)
        w.beginObject()
        for event in row.events {
            w.key(text: event.name)
            w.beginObject()
            if let h = event.handler { w.key(Wire.Key.handler); w.string(h) }
            if event.passesAction {
                w.key(Wire.Key.action)
                if let a = row.action { writeAction(a, doc, &w) } else { w.null() }
            }
            if !event.fields.isEmpty {
                w.key(Wire.Key.fields)
                w.beginObject()
                for (name, node) in event.fields {
                    w.key(text: name)
                    if let node { w.raw(node, of: doc) } else { w.null() }
                }
                w.endObject()
            }
            w.endObject()
        }
        w.endObject()
    }

    private func writeView(_ v: SupplementaryView, _ w: inout JSONWriter) {
        w.beginObject()
        w.key(Wire.Key.renderer); w.string(orNull: v.renderer)
        w.key(Wire.Key.model); w.raw(v.modelJSON)
        w.endObject()
    }

    private func writeAttributes(_ attributes: [Attribute], _ doc: JSONDocument, _ w: inout JSONWriter) {
        w.beginObject()
        attributes.withUnsafeBufferPointer { attributes in
            for i in attributes.indices {
                w.key(text: attributes[i].name)
                writeValue(attributes[i].value, doc, &w)
            }
        }
        w.endObject()
    }

    private func writeValue(_ v: AttributeValue, _ doc: JSONDocument, _ w: inout JSONWriter) {
        switch v {
        case .json(let node): w.raw(node, of: doc)
        case .string(let s): w.string(s)
        case .int(let n): w.int(n)
        case .bool(let b): w.bool(b)
        case .null: w.null()
        case .action(let a): writeAction(a, doc, &w)
        case .list(let items):
            w.beginArray()
            items.withUnsafeBufferPointer { items in
                for i in items.indices { writeValue(items[i], doc, &w) }
            }
            w.endArray()
        case .object(let fields): writeAttributes(fields, doc, &w)
        }
    }

    private func writeAction(_ a: RowAction, _ doc: JSONDocument, _ w: inout JSONWriter) {
        w.beginObject()
        w.key(Wire.Key.kind); w.string(a.kind.rawValue)
        w.key(Wire.Key.target); writeText(a.target.0, a.target.1, doc, &w)
        if let r = a.siteRootPath { w.key(Wire.Key.siteRootPath); writeText(r, .empty, doc, &w) }
        if let l = a.label { w.key(Wire.Key.label); writeText(l, .empty, doc, &w) }
        w.endObject()
    }

    /// Writes two text parts as one JSON string, copied from the response in their escaped form.
    private func writeText(_ a: TextPart, _ b: TextPart, _ doc: JSONDocument, _ w: inout JSONWriter) {
        func append(_ part: TextPart, _ w: inout JSONWriter) {
            switch part {
            case .node(let n):
                w.stringPart(bodyOf: n, in: doc)
            case .query(let n):
                if doc.nodes[n].end - doc.nodes[n].start > 2 {
                    w.stringPart("?")
                    w.stringPart(bodyOf: n, in: doc)
                }
            case .empty:
                break
            }
        }
        w.beginString()
        append(a, &w)
        append(b, &w)
        w.endString()
    }

    private func writeDiagnostic(_ d: Diagnostic, _ w: inout JSONWriter) {
        w.beginObject()
        w.key(Wire.Key.severity); w.string(d.severity.rawValue)
        w.key(Wire.Key.code); w.string(d.code)
        w.key(Wire.Key.path); w.string(d.path)
        w.key(Wire.Key.message); w.string(d.message)
        w.endObject()
    }
}

extension JSONWriter {
    /// Writes member `name` with the value `value` writes, and returns where its key and value sit.
    @inline(__always)
    mutating func member(_ name: StaticString, _ value: (inout JSONWriter) -> Void) -> RecordOutline.Member {
        let key = startValue()
        self.key(name)
        let start = position
        value(&self)
        return RecordOutline.Member(key: key..<start - 1, value: start..<position)
    }
}
