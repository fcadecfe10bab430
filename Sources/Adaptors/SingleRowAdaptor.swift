public import ContentTree
import LayoutJSON

/// Items rendered as exactly one row whose model is the item itself (range filters, price sliders, search boxes).
public struct SingleRowAdaptor: ContentItemAdaptor {
    public let name: String

    /// An adaptor named `name` (e.g. `PriceSlider`).
    public init(name: String) { self.name = name }

    public func adapt(_ item: ContentItem, in tree: ContentTree, options: AdaptorOptions) -> AdaptedSection {
        var section = AdaptedSection()
        section.rows = [AdaptedRow(node: item.node, id: "0", action: nil)]
        return section
    }
}
