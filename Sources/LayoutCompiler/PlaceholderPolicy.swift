import Adaptors
import ContentTree
import LayoutJSON
import Mapping

/// Decides which placeholder a section shows, in one place: an item's own `@error` first, then what its adaptor
/// found (rows that could not be read, an empty results list or menu), then a loading placeholder for an empty
/// include slot when the config asks for one.
struct PlaceholderPolicy: Sendable {
    let options: CompileOptions

    static let errorKey: JSONKey = "@error"
    static let contentPathsKey: JSONKey = "contentPaths"

    /// Sets `adapted.placeholder` (and its message) for `item`; returns the diagnostic an `@error` gives.
    func apply(to adapted: inout AdaptedSection, item: ContentItem, in doc: JSONDocument) -> Diagnostic? {
        // The reader flags objects with an `@error` key (or an escaped key, which might spell it).
        if doc.nodes[item.node].flags & (JSONNode.Flags.errorKey | JSONNode.Flags.escapedKey) != 0,
            let errorNode = doc.value(item.node, Self.errorKey)
        {
            let text = doc.string(errorNode) ?? String(decoding: doc.raw(errorNode), as: UTF8.self)
            adapted.placeholder = .error
            adapted.placeholderMessage = text
            return Diagnostic(.warning, .cartridgeError, path: item.path, "\(item.type) reported an error: \(text)")
        }
        if adapted.rows.isEmpty, adapted.placeholder == nil, options.emptySlotsShowLoading, item.childCount == 0,
            let paths = doc.value(item.node, Self.contentPathsKey), doc.kind(paths) == .array,
            doc.nodes[paths].count > 0
        {
            adapted.placeholder = .loading
            adapted.isContainer = false
        }
        return nil
    }
}
