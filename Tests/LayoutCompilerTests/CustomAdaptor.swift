import Adaptors
import ContentTree

/// A test-only adaptor showing the Swift extension point: two rows made from the item itself.
struct TwoRowAdaptor: ContentItemAdaptor {
    let name = "TwoRows"

    func adapt(_ item: ContentItem, in tree: ContentTree, options: AdaptorOptions) -> AdaptedSection {
        var section = AdaptedSection()
        section.rows = [
            AdaptedRow(node: item.node, id: "first", action: nil),
            AdaptedRow(node: item.node, id: "second", action: nil),
        ]
        return section
    }
}
