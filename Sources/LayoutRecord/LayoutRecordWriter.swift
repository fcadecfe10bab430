import Adaptors
public import ContentTree
public import LayoutJSON

/// Serialises a layout record to compact JSON, copying models byte-for-byte from the response.
public struct LayoutRecordWriter: Sendable {
    public init() {}

    /// The record as one line of JSON (no trailing newline).
    public func write(_ record: LayoutRecord) -> [UInt8] {
        write(source: record.source, page: record.page, document: record.document) { section in
            for s in record.sections { section(s.head, s.rows) }
            return record.diagnostics
        }
    }

    /// A record written as its sections are made: `sections` passes each section to the function it is given, in
    /// order, and returns the record's diagnostics.
    public func write(
        source: RecordSource?, page: PageFacts, document doc: JSONDocument,
        sections: (_ section: (SectionHead, [LayoutRow]) -> Void) -> [Diagnostic]
    ) -> [UInt8] {
        JSONWriter.bytes(capacity: doc.bytes.count + doc.bytes.count / 4 + 1024) { w in
            w.beginObject()
            w.key("version")
            w.int(LayoutRecord.formatVersion)
            w.key("source")
            if let s = source { writeSource(s, &w) } else { w.null() }
            w.key("page")
            writePage(page, doc, &w)
            w.key("sections")
            w.beginArray()
            let diagnostics = sections { head, rows in writeSection(head, rows, doc, &w) }
            w.endArray()
            w.key("diagnostics")
            w.beginArray()
            for d in diagnostics { writeDiagnostic(d, &w) }
            w.endArray()
            w.endObject()
        }
    }

    private func writeSource(_ s: RecordSource, _ w: inout JSONWriter) {
        w.beginObject()
        if let v = s.file { w.key("file"); w.string(v) }
        if let v = s.topic { w.key("topic"); w.string(v) }
        if let v = s.partition { w.key("partition"); w.int(v) }
        if let v = s.offset { w.key("offset"); w.int(Int(v)) }
        if let v = s.timestampMs { w.key("timestamp"); w.int(Int(v)) }
        if let v = s.key { w.key("key"); w.string(v) }
        w.endObject()
    }

    private func writePage(_ p: PageFacts, _ doc: JSONDocument, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string(orNull: p.type)
        if let v = p.name { w.key("name"); w.string(v) }
        if let v = p.contentPath { w.key("contentPath"); w.string(v) }
        if let v = p.siteRootPath { w.key("siteRootPath"); w.string(v) }
        if let v = p.siteProductionURL { w.key("siteProductionURL"); w.string(v) }
        if let v = p.canonical { w.key("canonical"); writeAction(v, doc, &w) }
        w.endObject()
    }

    private func writeSection(_ s: SectionHead, _ rows: [LayoutRow], _ doc: JSONDocument, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(utf8: s.idUTF8)
        w.key("path"); w.string(s.path)
        w.key("index"); w.int(s.index)
        w.key("type"); w.string(s.type)
        w.key("adaptor"); w.string(s.adaptor)
        w.key("visible"); w.bool(s.visible)
        if let p = s.parentUTF8 { w.key("parent"); w.string(utf8: p) }
        if let g = s.group {
            w.key("group")
            w.beginObject()
            w.key("by"); w.string(g.by)
            w.key("value"); w.raw(g.valueJSON)
            w.endObject()
        }
        if !s.attributes.isEmpty {
            w.key("attributes")
            writeAttributes(s.attributes, doc, &w)
        }
        var others: [SupplementaryView] = []
        for view in s.supplementary {
            switch view.kind {
            case SupplementaryKind.header: w.key("header"); writeView(view, &w)
            case SupplementaryKind.footer: w.key("footer"); writeView(view, &w)
            default: others.append(view)
            }
        }
        if !others.isEmpty {
            w.key("supplementary")
            w.beginObject()
            for view in others {
                w.key(text: view.kind)
                writeView(view, &w)
            }
            w.endObject()
        }
        if let p = s.placeholder {
            w.key("placeholder")
            w.beginObject()
            w.key("kind"); w.string(p.kind.rawValue)
            w.key("renderer"); w.string(orNull: p.renderer)
            if let m = p.message { w.key("message"); w.string(m) }
            w.endObject()
        }
        w.key("rows")
        w.beginArray()
        // Rows (like attributes and lists below) are read in place: iterating an array copies each element, counting its references.
        rows.withUnsafeBufferPointer { rows in
            for i in rows.indices {
                w.beginObject()
                w.key("id"); w.string(rows[i].id)
                w.key("renderer"); w.string(orNull: rows[i].renderer)
                w.key("model"); w.raw(rows[i].model, of: doc)
                if let a = rows[i].action { w.key("action"); writeAction(a, doc, &w) }
                if !rows[i].events.isEmpty { writeEvents(rows[i], doc, &w) }
                w.endObject()
            }
        }
        w.endArray()
        w.endObject()
    }

    private func writeEvents(_ row: LayoutRow, _ doc: JSONDocument, _ w: inout JSONWriter) {
        w.key("events")
        w.beginObject()
        for event in row.events {
            w.key(text: event.name)
            w.beginObject()
            if let h = event.handler { w.key("handler"); w.string(h) }
            if event.passesAction {
                w.key("action")
                if let a = row.action { writeAction(a, doc, &w) } else { w.null() }
            }
            if !event.fields.isEmpty {
                w.key("fields")
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
        w.key("renderer"); w.string(orNull: v.renderer)
        w.key("model"); w.raw(v.modelJSON)
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
        w.key("kind"); w.string(a.kind.rawValue)
        w.key("target"); writeText(a.target.0, a.target.1, doc, &w)
        if let r = a.siteRootPath { w.key("siteRootPath"); writeText(r, .empty, doc, &w) }
        if let l = a.label { w.key("label"); writeText(l, .empty, doc, &w) }
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
        w.key("severity"); w.string(d.severity.rawValue)
        w.key("code"); w.string(d.code)
        w.key("path"); w.string(d.path)
        w.key("message"); w.string(d.message)
        w.endObject()
    }
}
