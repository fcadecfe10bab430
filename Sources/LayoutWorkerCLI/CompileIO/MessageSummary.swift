import Delivery
import Kafka
import LayoutDiff
import LayoutJSON
import LayoutKit

/// A Kafka message as `tail` prints it by default: position and key on one line, then what the value is (a layout
/// record's visible sections and renderers, a change set's counts, a dead letter's error and origin), every header
/// with `full`.
struct MessageSummary {
    /// Every header, and each value in full.
    var full = false

    /// `text` with control characters, backslashes and non-printing scalars escaped (`\n`, `\u{7f}`), so a key
    /// never breaks the line it is printed on.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            case " "..."~": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator
                {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Every header, one per line, values as text (bytes that are not UTF-8 shown escaped).
    func headerLines(_ m: KafkaMessage) -> String {
        m.headers.map { h in
            "\n  header \(Self.escaped(h.name)): "
                + (h.value.map { Self.escaped(String(decoding: $0, as: UTF8.self)) } ?? "null")
        }.joined()
    }

    /// The message as one line (a key that is not printable shown escaped), then indented detail lines.
    func describe(_ m: KafkaMessage) -> String {
        let key = m.key.map { Self.escaped(String(decoding: $0, as: UTF8.self)) } ?? "null"
        var line = "\(m.topic)[\(m.partition)]@\(m.offset) key=\(key)"
        if full { line += headerLines(m) }
        if let code = m.header(Wire.Header.errorCode).map({ String(decoding: $0, as: UTF8.self) }) {
            var message = String(decoding: m.header(Wire.Header.errorMessage) ?? [], as: UTF8.self)
            if message.hasPrefix(code + ": ") { message.removeFirst(code.count + 2) }  // the code is said once
            line += "\n  DEAD LETTER \(code): \(message)"
            line +=
                "\n  from \(String(decoding: m.header(Wire.Header.sourceTopic) ?? [], as: UTF8.self))[\(String(decoding: m.header(Wire.Header.sourcePartition) ?? [], as: UTF8.self))]@\(String(decoding: m.header(Wire.Header.sourceOffset) ?? [], as: UTF8.self)), \(m.value?.count ?? 0) bytes"
            return line
        }
        guard let value = m.value else { return line + " TOMBSTONE" }
        if full { return line + "\n" + String(decoding: value, as: UTF8.self) }
        guard let doc = try? JSONReader().read(value) else { return line + " \(value.count) bytes" }
        if doc.value(0, "kind").flatMap(doc.string) == ChangeSet.kind {
            return line + describeChangeSet(doc, bytes: value.count)
        }
        guard let sections = doc.value(0, "sections") else { return line + " \(value.count) bytes" }
        line +=
            " layout record v\(doc.value(0, "version").flatMap(doc.int) ?? 0), \(doc.nodes[sections].count) sections, \(value.count) bytes"
        for s in doc.elements(sections) {
            guard doc.value(s, "visible").flatMap(doc.bool) == true else { continue }
            let type = doc.value(s, "type").flatMap(doc.string) ?? "?"
            let rows =
                doc.value(s, "rows").map {
                    doc.elements($0).compactMap { doc.value($0, "renderer").flatMap(doc.string) }
                } ?? []
            let counts = Dictionary(grouping: rows, by: { $0 }).map { "\($0.key)×\($0.value.count)" }.sorted().joined(
                separator: " ")
            let placeholder =
                doc.value(s, "placeholder").flatMap { doc.value($0, "kind") }.flatMap(doc.string).map { " [\($0)]" }
                ?? ""
            line += "\n  \(doc.value(s, "index").flatMap(doc.int) ?? 0) \(type)\(placeholder) \(counts)"
        }
        if let d = doc.value(0, "diagnostics"), doc.nodes[d].count > 0 {
            line +=
                "\n  diagnostics: "
                + doc.elements(d).compactMap { doc.value($0, "code").flatMap(doc.string) }.joined(separator: ", ")
        }
        return line
    }

    /// One line per change set: its base and target, and what it does to sections and rows.
    func describeChangeSet(_ doc: JSONDocument, bytes: Int) -> String {
        func count(_ list: Int?, _ name: JSONKey) -> Int {
            list.flatMap { doc.value($0, name) }.map { Int(doc.nodes[$0].count) } ?? 0
        }
        func hash(_ name: JSONKey) -> String {
            guard let id = doc.value(0, name), doc.kind(id) == .object else { return "empty" }
            return doc.value(id, "hash").flatMap(doc.string) ?? "?"
        }
        var line = " change set \(hash("base")) → \(hash("target")), \(bytes) bytes"
        guard let sections = doc.value(0, "sections") else { return line + " (whole record replaced)" }
        if doc.value(sections, "replace") != nil { return line + " (sections replaced whole)" }
        line +=
            "\n  sections: +\(count(sections, "inserts")) -\(count(sections, "deletes")) moved \(count(sections, "moves")) updated \(count(sections, "updates"))"
        var rows = (inserts: 0, deletes: 0, moves: 0, updates: 0, replaced: 0)
        for update in doc.value(sections, "updates").map({ Array(doc.elements($0)) }) ?? [] {
            guard let r = doc.value(update, "rows") else { continue }
            if doc.value(r, "replace") != nil { rows.replaced += 1; continue }
            rows.inserts += count(r, "inserts"); rows.deletes += count(r, "deletes"); rows.moves += count(r, "moves");
            rows.updates += count(r, "updates")
        }
        line += "; rows: +\(rows.inserts) -\(rows.deletes) moved \(rows.moves) updated \(rows.updates)"
        if rows.replaced > 0 { line += ", \(rows.replaced) lists replaced whole" }
        return line
    }
}
