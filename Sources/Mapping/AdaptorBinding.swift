public import Adaptors
public import LayoutJSON

/// How one content type is adapted: which adaptor, optional grouping of its rows, the section attributes the config
/// adds and the ones carried across reloads.
public struct AdaptorBinding: Sendable {
    /// The adaptor used for the type.
    public var adaptor: any ContentItemAdaptor
    /// Splits the rows into one section per group value, when set.
    public var grouper: RowGrouper?
    /// Section attributes copied from the item's fields (after the adaptor's own; a name the adaptor already
    /// writes is left to the adaptor).
    public var attributes: [(name: String, path: FieldPath)]
    /// Section attributes carried from the page's previous layout, and how (on top of, or instead of, the
    /// adaptor's own `carriedAttributes`).
    public var carry: [(name: String, merge: AttributeMerge)]
    public var location: SourceLocation?

    public init(
        adaptor: any ContentItemAdaptor, grouper: RowGrouper? = nil, attributes: [(name: String, path: FieldPath)] = [],
        carry: [(name: String, merge: AttributeMerge)] = [], location: SourceLocation? = nil
    ) {
        self.adaptor = adaptor
        self.grouper = grouper
        self.attributes = attributes
        self.carry = carry
        self.location = location
    }
}
