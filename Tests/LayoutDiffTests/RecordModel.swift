import LayoutDiff
import LayoutJSON
import LayoutRecord
import TestSupport

/// A layout record built in tests, written in the compiler's member order.
struct RecordModel: Equatable {
    struct Row: Equatable {
        var id: String
        var renderer: String?
        var model: Int
        var action: String?
    }

    struct Section: Equatable {
        var id: String
        var type: String
        var visible = true
        var attributes: [String: Int] = [:]
        var rows: [Row] = []
    }

    var offset: Int?
    var pageType = "SearchPage"
    var sections: [Section] = []
    var diagnostics: [String] = []

    func bytes() -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("version"); w.int(RecordOutline.formatVersion)
        w.key("source")
        if let offset {
            w.beginObject()
            w.key("topic"); w.string("in")
            w.key("offset"); w.int(offset)
            w.endObject()
        } else {
            w.null()
        }
        w.key("page")
        w.beginObject()
        w.key("type"); w.string(pageType)
        w.endObject()
        w.key("sections")
        w.beginArray()
        for (n, s) in sections.enumerated() {
            w.beginObject()
            w.key("id"); w.string(s.id)
            // Like the compiler's, a path is positional: inserting a section moves the paths of those after it.
            w.key("path"); w.string("contents[0].Main[\(n)]")
            w.key("index"); w.int(n)
            w.key("type"); w.string(s.type)
            w.key("adaptor"); w.string("Generic")
            w.key("visible"); w.bool(s.visible)
            if !s.attributes.isEmpty {
                w.key("attributes")
                w.beginObject()
                for (k, v) in s.attributes.sorted(by: { $0.key < $1.key }) { w.key(text: k); w.int(v) }
                w.endObject()
            }
            w.key("rows")
            w.beginArray()
            for r in s.rows {
                w.beginObject()
                w.key("id"); w.string(r.id)
                w.key("renderer"); w.string(orNull: r.renderer)
                w.key("model");
                w.raw(Array(#"{"@class":"x.Record","n":\#(r.model),"text":"caf\u00e9 \"\#(r.id)\""}"#.utf8))
                if let a = r.action {
                    w.key("action")
                    w.beginObject()
                    w.key("kind"); w.string("navigate")
                    w.key("target"); w.string(a)
                    w.endObject()
                }
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("diagnostics")
        w.beginArray()
        for d in diagnostics {
            w.beginObject()
            w.key("severity"); w.string("warning")
            w.key("code"); w.string(d)
            w.key("path"); w.string("$")
            w.key("message"); w.string(d)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    static func random(
        _ g: inout SeededRandom, sections: ClosedRange<Int> = 0...8, rows: ClosedRange<Int> = 0...12, counter: inout Int
    ) -> RecordModel {
        var r = RecordModel(offset: Int.random(in: 0...1000, using: &g))
        for _ in 0..<Int.random(in: sections, using: &g) {
            r.sections.append(randomSection(&g, rows: rows, counter: &counter))
        }
        return r
    }

    static func randomSection(_ g: inout SeededRandom, rows: ClosedRange<Int>, counter: inout Int) -> Section {
        counter += 1
        var s = Section(
            id: "contents[0].Main[\(counter)]",
            type: ["ResultsList", "RefinementMenu", "Breadcrumbs"].randomElement(using: &g)!)
        if Bool.random(using: &g) { s.attributes["total"] = Int.random(in: 0...99, using: &g) }
        for _ in 0..<Int.random(in: rows, using: &g) { s.rows.append(randomRow(&g, counter: &counter)) }
        return s
    }

    static func randomRow(_ g: inout SeededRandom, counter: inout Int) -> Row {
        counter += 1
        return Row(
            id: "p\(counter)", renderer: Bool.random(using: &g) ? "ProductCell" : nil,
            model: Int.random(in: 0...9, using: &g),
            action: Bool.random(using: &g) ? "/p/\(counter)" : nil)
    }
}

/// Random edits of one kind (or mixed) applied to a record.
enum Edit: CaseIterable {
    case insert, delete, move, update, mixed, emptyToFull, fullToEmpty

    func apply(to r: RecordModel, _ g: inout SeededRandom, counter: inout Int) -> RecordModel {
        var r = r
        r.offset = (r.offset ?? 0) + 1
        switch self {
        case .emptyToFull:
            // The test starts these from a record without sections.
            var full = RecordModel.random(&g, sections: 1...8, rows: 1...12, counter: &counter)
            full.offset = r.offset
            return full
        case .fullToEmpty:
            r.sections = []
            return r
        case .mixed:
            for _ in 0..<Int.random(in: 1...6, using: &g) {
                r = ([Edit.insert, .delete, .move, .update].randomElement(using: &g)!).apply(
                    to: r, &g, counter: &counter)
            }
            if Bool.random(using: &g) { r.pageType = "Other" }
            if Bool.random(using: &g) { r.diagnostics.append("unmapped") }
            return r
        default: break
        }
        let onSections = r.sections.isEmpty || Int.random(in: 0..<4, using: &g) == 0
        if onSections {
            switch self {
            case .insert:
                r.sections.insert(
                    RecordModel.randomSection(&g, rows: 0...5, counter: &counter),
                    at: Int.random(in: 0...r.sections.count, using: &g))
            case .delete where !r.sections.isEmpty:
                r.sections.remove(at: Int.random(in: 0..<r.sections.count, using: &g))
            case .move where r.sections.count > 1:
                let s = r.sections.remove(at: Int.random(in: 0..<r.sections.count, using: &g))
                r.sections.insert(s, at: Int.random(in: 0...r.sections.count, using: &g))
            case .update where !r.sections.isEmpty:
                let k = Int.random(in: 0..<r.sections.count, using: &g)
                if Bool.random(using: &g) {
                    r.sections[k].visible.toggle()
                } else {
                    r.sections[k].attributes["total", default: 0] += 1
                }
            default: break
            }
            return r
        }
        let k = Int.random(in: 0..<r.sections.count, using: &g)
        var rows = r.sections[k].rows
        switch self {
        case .insert:
            rows.insert(RecordModel.randomRow(&g, counter: &counter), at: Int.random(in: 0...rows.count, using: &g))
        case .delete where !rows.isEmpty: rows.remove(at: Int.random(in: 0..<rows.count, using: &g))
        case .move where rows.count > 1:
            let row = rows.remove(at: Int.random(in: 0..<rows.count, using: &g))
            rows.insert(row, at: Int.random(in: 0...rows.count, using: &g))
        case .update where !rows.isEmpty:
            let i = Int.random(in: 0..<rows.count, using: &g)
            switch Int.random(in: 0..<3, using: &g) {
            case 0: rows[i].renderer = rows[i].renderer == nil ? "Cell" : nil
            case 1: rows[i].model += 1
            default: rows[i].action = rows[i].action == nil ? "/x" : nil
            }
        default: break
        }
        r.sections[k].rows = rows
        return r
    }
}
