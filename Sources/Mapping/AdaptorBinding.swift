public import Adaptors

/// How one content type is adapted: which adaptor, and optional grouping of its rows.
public struct AdaptorBinding: Sendable {
    /// The adaptor used for the type.
    public var adaptor: any ContentItemAdaptor
    /// Splits the rows into one section per group value, when set.
    public var grouper: RowGrouper?
    public var location: SourceLocation?

    public init(adaptor: any ContentItemAdaptor, grouper: RowGrouper? = nil, location: SourceLocation? = nil) {
        self.adaptor = adaptor
        self.grouper = grouper
        self.location = location
    }
}
