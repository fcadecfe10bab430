public import ContentTree
public import LayoutJSON

/// Reads the rows of an item from one of its array fields, with ids from a list of candidate paths.
public struct RowReader: Sendable {
    /// Paths tried in order for a row's id; the first string or number found wins, else the row index.
    public var idPaths: [FieldPath]
    /// Prefix for ids (keeps ids unique when rows come from several arrays).
    public var idPrefix: String

    public init(idPaths: [FieldPath], idPrefix: String = "") {
        self.idPaths = idPaths
        self.idPrefix = idPrefix
    }

    /// The outcome of reading one field.
    public enum Outcome: Sendable {
        case rows([AdaptedRow])
        case missing
        case notAnArray(JSONKind)
    }

    /// Reads `field` of `item`: one row per element.
    public func read(_ field: JSONKey, of item: ContentItem, in doc: JSONDocument, firstIndex: Int = 0) -> Outcome {
        guard let array = doc.value(item.node, field) else { return .missing }
        switch doc.kind(array) {
        case .null: return .rows([])
        case .array: break
        case let kind: return .notAnArray(kind)
        }
        var rows: [AdaptedRow] = []
        rows.reserveCapacity(Int(doc.nodes[array].count))
        var index = firstIndex
        for element in doc.elements(array) {
            rows.append(
                AdaptedRow(
                    node: element, id: id(of: element, in: doc, index: index),
                    action: RowAction.forRow(element, in: doc)))
            index += 1
        }
        return .rows(rows)
    }

    /// A section holding the rows of `field` (none when it is missing or null), or, when the field is not an
    /// array, the unreadable-rows section to return as is (`readable` false).
    public func section(from field: JSONKey, of item: ContentItem, in doc: JSONDocument) -> (
        section: AdaptedSection, readable: Bool
    ) {
        var section = AdaptedSection()
        switch read(field, of: item, in: doc) {
        case .rows(let rows): section.rows = rows
        case .missing: break
        case .notAnArray(let kind):
            return (.unreadable(item, field: field.description, reason: "is a \(kind), not an array"), false)
        }
        return (section, true)
    }

    /// The id of a row model: the first candidate path with a string or number value, else its index.
    public func id(of node: Int, in doc: JSONDocument, index: Int) -> String {
        for path in idPaths {
            guard let value = path.resolve(in: doc, from: node) else { continue }
            let node = doc.nodes[value]
            switch node.kind {
            case .string where node.flags & JSONNode.Flags.escaped == 0:
                if node.end - node.start > 2 { return text(doc, Int(node.start) + 1..<Int(node.end) - 1) }
            case .string:
                if let s = doc.string(value), !s.isEmpty { return idPrefix + s }
            case .number:
                return text(doc, node.range)
            default: continue
            }
        }
        return idPrefix + String(index)
    }

    /// The prefix followed by `range` of the document's bytes (valid UTF-8 without escapes), made in one allocation.
    private func text(_ doc: JSONDocument, _ range: Range<Int>) -> String {
        if idPrefix.isEmpty {
            return doc.bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self)
            }
        }
        var prefix = idPrefix
        return prefix.withUTF8 { head in
            doc.bytes.withUnsafeBufferPointer { bytes in
                String(unsafeUninitializedCapacity: head.count + range.count) { out in
                    let middle = out.initialize(fromContentsOf: head)
                    return out[middle...].initialize(fromContentsOf: bytes[range])
                }
            }
        }
    }
}

extension FieldPath {
    /// A path from literal text known to be valid (built-in id paths).
    static func known(_ text: String) -> FieldPath {
        do { return try FieldPath(parsing: text) } catch {
            preconditionFailure("invalid built-in field path \(text): \(error)")
        }
    }
}
