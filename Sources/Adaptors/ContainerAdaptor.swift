public import ContentTree

/// Slots and pages that only hold other content items: no rows, not visible.
public struct ContainerAdaptor: ContentItemAdaptor {
    public let name = AdaptorName.container.rawValue

    public init() {}

    public func adapt(_ item: ContentItem, in tree: ContentTree, options: AdaptorOptions) -> AdaptedSection {
        var section = AdaptedSection()
        section.isContainer = true
        return section
    }
}
