public import ContentTree
import LayoutJSON

/// Search adjustments: one row (the item) when it carries spelling corrections or suggestions, else none.
public struct SearchAdjustmentsAdaptor: ContentItemAdaptor {
    public let name = AdaptorName.searchAdjustments.rawValue
    static let adjustmentKeys: [JSONKey] = ["originalTerms", "adjustedSearches", "suggestedSearches"]

    public init() {}

    public func adapt(_ item: ContentItem, in tree: ContentTree, options: AdaptorOptions) -> AdaptedSection {
        let doc = tree.document
        var section = AdaptedSection()
        let hasAdjustment = Self.adjustmentKeys.contains { key in
            guard let value = doc.value(item.node, key) else { return false }
            switch doc.kind(value) {
            case .object, .array: return doc.nodes[value].count > 0
            case .string: return doc.nodes[value].end - doc.nodes[value].start > 2
            default: return false
            }
        }
        if hasAdjustment { section.rows = [AdaptedRow(node: item.node, id: "0", action: nil)] }
        return section
    }
}
