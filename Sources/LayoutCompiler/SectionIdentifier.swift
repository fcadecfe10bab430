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
    func ids(of tree: ContentTree) -> (ids: SectionIDList, diagnostics: [Diagnostic]) {
        let doc = tree.document
        // Editor ids are mostly resource paths of a few dozen bytes.
        var list = SectionIDList(capacity: tree.items.count, bytes: tree.items.count &* 48)
        var diagnostics: [Diagnostic] = []
        for index in tree.items.indices {
            // Fields read in place: copying the item counts references.
            let node = tree.items[index].node
            var reported = true
            list.beginID()
            switch config.sectionIdentity(for: tree.items[index].type) {
            case .path:
                list.write(tree.items[index].path.utf8)
            case .editor:
                if !Self.writeEditorID(node, doc, to: &list) {
                    Self.writeNameID(tree.items[index], doc, to: &list)
                    reported = false
                }
            case .name:
                Self.writeNameID(tree.items[index], doc, to: &list)
                reported = false
            case .field(let path):
                if let value = path.resolve(in: doc, from: node), let text = Self.scalarText(value, doc) {
                    list.write(tree.items[index].type.utf8)
                    list.write(UInt8(ascii: ":"))
                    list.write(text)
                } else {
                    Self.writeNameID(tree.items[index], doc, to: &list)
                    reported = false
                }
            }
            let (k, repeated) = list.endID()
            // An occurrence among same-named siblings is part of a name id; a repeated editor or field identity is
            // a fault of the response (or a config choice) worth knowing about.
            if repeated && reported {
                let item = tree.items[index]
                let id = String(decoding: list[k], as: UTF8.self)
                let base = id[..<(id.lastIndex(of: "~") ?? id.endIndex)]
                diagnostics.append(
                    Diagnostic(
                        .warning, .duplicateSectionId, path: item.path,
                        "\(item.type) has the identity '\(base)' of an earlier item; its section id is '\(id)'"))
            }
        }
        return (list, diagnostics)
    }

    /// `ecr:resourcePath` and `ecr:innerPath`, found in one pass over the audit info.
    static let editorKeys = JSONKeyTable([resourcePathKey, innerPathKey])

    /// Writes `ecr:resourcePath`, followed by `:` and `ecr:innerPath` when it is a string; false (nothing written)
    /// without a resource path.
    static func writeEditorID(_ node: Int, _ doc: JSONDocument, to list: inout SectionIDList) -> Bool {
        guard let audit = doc.value(node, auditInfoKey), doc.kind(audit) == .object else { return false }
        let keys = editorKeys
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { found in
            doc.values(audit, keys, into: found)
            let resource = found[0], inner = found[1]
            guard resource >= 0, isNonEmptyString(resource, doc) else { return false }
            writeBody(resource, doc, to: &list)
            if inner >= 0, isNonEmptyString(inner, doc) {
                list.write(UInt8(ascii: ":"))
                writeBody(inner, doc, to: &list)
            }
            return true
        }
    }

    private static func isNonEmptyString(_ node: Int, _ doc: JSONDocument) -> Bool {
        doc.kind(node) == .string && doc.nodes[node].end - doc.nodes[node].start > 2
    }

    /// A string node's text: copied from the response, or decoded when it has escapes.
    private static func writeBody(_ string: Int, _ doc: JSONDocument, to list: inout SectionIDList) {
        let node = doc.nodes[string]
        if node.flags & JSONNode.Flags.escaped == 0 {
            doc.bytes.withUnsafeBufferPointer {
                list.write(UnsafeBufferPointer(rebasing: $0[Int(node.start) + 1..<Int(node.end) - 1]))
            }
        } else {
            list.write(doc.decodedStringBytes(string))
        }
    }

    /// The parent's id, `/`, the type and `[name]` when the item has a string name.
    static func writeNameID(_ item: ContentItem, _ doc: JSONDocument, to list: inout SectionIDList) {
        if let parent = item.parent {
            list.write(idAt: parent)
            list.write(UInt8(ascii: "/"))
        }
        list.write(item.type.utf8)
        if let name = doc.value(item.node, nameKey), isNonEmptyString(name, doc) {
            list.write(UInt8(ascii: "["))
            writeBody(name, doc, to: &list)
            list.write(UInt8(ascii: "]"))
        }
    }

    /// A string's text or a number's JSON text (nil for an empty string and other kinds).
    static func scalarText(_ node: Int, _ doc: JSONDocument) -> ArraySlice<UInt8>? {
        switch doc.kind(node) {
        case .string:
            let n = doc.nodes[node]
            guard n.end - n.start > 2 else { return nil }
            return n.flags & JSONNode.Flags.escaped == 0
                ? doc.bytes[Int(n.start) + 1..<Int(n.end) - 1] : ArraySlice(doc.decodedStringBytes(node))
        case .number: return doc.raw(node)
        default: return nil
        }
    }
}
