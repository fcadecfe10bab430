public import Adaptors

/// Facts about the page as a whole, taken from the root content item.
public struct PageFacts: Sendable, Equatable {
    /// The root item's `@type` (nil when the root is not a content item).
    public var type: String?
    public var name: String?
    /// `endeca:contentPath`.
    public var contentPath: String?
    /// `endeca:siteRootPath`.
    public var siteRootPath: String?
    /// `atg:currentSiteProductionURL`.
    public var siteProductionURL: String?
    /// The canonical link, as an action.
    public var canonical: RowAction?

    public init() {}
}
