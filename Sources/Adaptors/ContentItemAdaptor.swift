public import ContentTree

/// Converts one content item into a section's rows and attributes (the server-side EMContentItemAdaptor).
public protocol ContentItemAdaptor: Sendable {
    /// The adaptor's name, written into each section it makes.
    var name: String { get }
    /// The section for `item`.
    func adapt(_ item: ContentItem, in tree: ContentTree, options: AdaptorOptions) -> AdaptedSection
    /// Attributes taken over from the previous layout of the same section when a page is reloaded (none by default).
    var carriedAttributes: [AttributeCarry] { get }
}

extension ContentItemAdaptor {
    public var carriedAttributes: [AttributeCarry] { [] }
}
