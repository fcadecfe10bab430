import ContentTree
import LayoutJSON
import Mapping

/// Gives every content item of a tree the id its section carries: one that survives siblings being added, removed
/// or reordered (see `SectionIdentity`), unique within the record.
struct SectionIdentifier: Sendable {
    let config: MappingConfig

    static let auditInfoKey: JSONKey = "endeca:auditInfo"
    static let resourcePathKey: JSONKey = "ecr:resourcePath"
    static let innerPathKey: JSONKey = "ecr:innerPath"
    static let nameKey: JSONKey = "name"

    /// The ids of `tree.items`, in order, with a `duplicate-section-id` warning for each identity several items
    /// share (the second gets `~2` appended, the third `~3`, in document order).
    func ids(of tree: ContentTree) -> (ids: [String], diagnostics: [Diagnostic]) {
        let doc = tree.document
        var ids: [String] = []
        ids.reserveCapacity(tree.items.count)
        // How many items so far had each identity (absent: one).
        var taken = SectionIDCounter(capacity: tree.items.count)
        var diagnostics: [Diagnostic] = []
        for item in tree.items {
            let parent = item.parent.map { ids[$0] }
            var reported = true
            var base: String
            switch config.sectionIdentity(for: item.type) {
            case .path:
                base = item.path
            case .editor:
                if let editor = Self.editorID(item.node, doc) {
                    base = editor
                } else {
                    base = Self.nameID(item, parent, doc)
                    reported = false
                }
            case .name:
                base = Self.nameID(item, parent, doc)
                reported = false
            case .field(let path):
                if let value = path.resolve(in: doc, from: item.node), let text = Self.scalarText(value, doc) {
                    base = item.type + ":" + text
                } else {
                    base = Self.nameID(item, parent, doc)
                    reported = false
                }
            }
            guard let count = taken.take(base) else {
                ids.append(base)
                continue
            }
            var n = count + 1
            var id = base + "~" + String(n)
            while taken.count(of: id) != nil {
                n += 1
                id = base + "~" + String(n)
            }
            taken.set(base, count: n)
            taken.set(id, count: 1)
            ids.append(id)
            // An occurrence among same-named siblings is part of a name id; a repeated editor or field identity is
            // a fault of the response (or a config choice) worth knowing about.
            if reported {
                diagnostics.append(
                    Diagnostic(
                        .warning, "duplicate-section-id", path: item.path,
                        "\(item.type) has the identity '\(base)' of an earlier item; its section id is '\(id)'"))
            }
        }
        return (ids, diagnostics)
    }

    /// `ecr:resourcePath`, followed by `:` and `ecr:innerPath` when it is a string.
    static func editorID(_ node: Int, _ doc: JSONDocument) -> String? {
        guard let audit = doc.value(node, auditInfoKey), doc.kind(audit) == .object,
            let resource = doc.value(audit, resourcePathKey), doc.kind(resource) == .string,
            doc.nodes[resource].end - doc.nodes[resource].start > 2
        else { return nil }
        let inner = doc.value(audit, innerPathKey).flatMap { n -> Int? in
            doc.kind(n) == .string && doc.nodes[n].end - doc.nodes[n].start > 2 ? n : nil
        }
        let escaped = (inner.map { doc.nodes[$0].flags } ?? 0) | doc.nodes[resource].flags
        guard escaped & JSONNode.Flags.escaped == 0 else {
            // Escapes to decode: the slow way.
            return doc.string(resource).map { r in inner.flatMap(doc.string).map { r + ":" + $0 } ?? r }
        }
        // Both bodies copied from the response into one new string.
        let r = Int(doc.nodes[resource].start) + 1..<Int(doc.nodes[resource].end) - 1
        let i = inner.map { Int(doc.nodes[$0].start) + 1..<Int(doc.nodes[$0].end) - 1 }
        let count = r.count + (i.map { $0.count + 1 } ?? 0)
        return doc.bytes.withUnsafeBufferPointer { bytes in
            String(unsafeUninitializedCapacity: count) { out in
                var at = 0
                for b in bytes[r] { out[at] = b; at += 1 }
                if let i {
                    out[at] = UInt8(ascii: ":")
                    at += 1
                    for b in bytes[i] { out[at] = b; at += 1 }
                }
                return at
            }
        }
    }

    /// The parent's id, `/`, the type and `[name]` when the item has a string name.
    static func nameID(_ item: ContentItem, _ parent: String?, _ doc: JSONDocument) -> String {
        var id = parent.map { $0 + "/" } ?? ""
        id += item.type
        if let name = doc.value(item.node, nameKey).flatMap(doc.string), !name.isEmpty { id += "[" + name + "]" }
        return id
    }

    /// A string's text or a number's JSON text.
    static func scalarText(_ node: Int, _ doc: JSONDocument) -> String? {
        switch doc.kind(node) {
        case .string: return doc.string(node).flatMap { $0.isEmpty ? nil : $0 }
        case .number: return String(decoding: doc.raw(node), as: UTF8.self)
        default: return nil
        }
    }
}
