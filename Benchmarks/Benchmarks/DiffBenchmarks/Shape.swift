import LayoutDiff
import LayoutJSON
import LayoutRecord
import SplitMix

/// Records shaped for the diff benchmarks.
enum Shape {
    /// One section of `rows` rows, and the same after deleting a fifth, inserting a fifth and moving 4%
    /// (5,000 rows: 1,000 deleted, 1,000 inserted, 200 moved), with a fixed seed.
    static func differenceKit(rows: Int) -> (old: [UInt8], new: [UInt8]) {
        var g = SplitMix64(seed: 2024)
        let old = Array(0..<rows)
        var new = old
        for _ in 0..<(rows / 5) { new.remove(at: Int(g.next() % UInt64(new.count))) }
        for i in 0..<(rows / 5) { new.insert(rows + i, at: Int(g.next() % UInt64(new.count + 1))) }
        for _ in 0..<(rows / 25) {
            let item = new.remove(at: Int(g.next() % UInt64(new.count)))
            new.insert(item, at: Int(g.next() % UInt64(new.count + 1)))
        }
        return (record(old), record(new))
    }

    static func record(_ ids: [Int]) -> [UInt8] {
        var w = JSONWriter(capacity: ids.count * 120)
        w.beginObject()
        w.key("version"); w.int(1)
        w.key("source"); w.null()
        w.key("page"); w.beginObject(); w.key("type"); w.string("SearchPage"); w.endObject()
        w.key("sections")
        w.beginArray()
        w.beginObject()
        w.key("id"); w.string("contents[0]")
        w.key("index"); w.int(0)
        w.key("type"); w.string("ResultsList")
        w.key("adaptor"); w.string("ResultsList")
        w.key("visible"); w.bool(true)
        w.key("rows")
        w.beginArray()
        for id in ids {
            w.beginObject()
            w.key("id"); w.string("prod\(id)")
            w.key("renderer"); w.string("ProductCell")
            w.key("model")
            w.raw(
                Array(
                    #"{"@class":"x.Record","attributes":{"product.repositoryId":["prod\#(id)"],"product.price":["9.99"]}}"#
                        .utf8))
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.endArray()
        w.key("diagnostics"); w.beginArray(); w.endArray()
        w.endObject()
        return w.bytes
    }

    /// The record with a member added to every tenth row's model.
    static func tagEveryTenthModel(_ r: RecordOutline) -> [UInt8] {
        let doc = try! JSONReader().read(r.bytes)
        var out: [UInt8] = []
        var cursor = 0, n = 0
        let sections = doc.value(doc.root, "sections").map { Array(doc.elements($0)) } ?? []
        let rows = sections.flatMap { s in doc.value(s, "rows").map { Array(doc.elements($0)) } ?? [] }
        for row in rows {
            defer { n += 1 }
            guard n % 10 == 0, let model = doc.value(row, "model") else { continue }
            let at = doc.nodes[model].range.lowerBound + 1
            out +=
                doc.bytes[cursor..<at] + Array(#""changed":1"#.utf8)
                + (doc.nodes[model].count > 0 ? [UInt8(ascii: ",")] : [])
            cursor = at
        }
        return out + doc.bytes[cursor...]
    }
}
