public import Adaptors

/// Everything about a section but its rows: what the record writer needs before it writes the rows.
public struct SectionHead: Sendable, Equatable {
    /// The section's identity across responses (see `SectionIdentity`; `#group=value` appended for row groups).
    public var id: String
    /// Where the content item sits in this response, e.g. `contents[0].MainContent[2]`.
    public var path: String
    public var index: Int
    /// The content item's `@type`.
    public var type: String
    public var adaptor: String
    public var visible: Bool
    /// The id of the nearest enclosing content item's section (kept in the record), if any.
    public var parent: String?
    /// The group-by path and this group's value as JSON, for grouped sections.
    public var group: (by: String, valueJSON: [UInt8])?
    public var attributes: [Attribute]
    public var supplementary: [SupplementaryView]
    public var placeholder: LayoutPlaceholder?

    public init(
        id: String, path: String, index: Int, type: String, adaptor: String, visible: Bool, parent: String?,
        group: (by: String, valueJSON: [UInt8])? = nil, attributes: [Attribute] = [],
        supplementary: [SupplementaryView] = [],
        placeholder: LayoutPlaceholder? = nil
    ) {
        self.id = id
        self.path = path
        self.index = index
        self.type = type
        self.adaptor = adaptor
        self.visible = visible
        self.parent = parent
        self.group = group
        self.attributes = attributes
        self.supplementary = supplementary
        self.placeholder = placeholder
    }

    public static func == (a: SectionHead, b: SectionHead) -> Bool {
        a.id == b.id && a.path == b.path && a.index == b.index && a.type == b.type && a.adaptor == b.adaptor
            && a.visible == b.visible
            && a.parent == b.parent && a.group?.by == b.group?.by && a.group?.valueJSON == b.group?.valueJSON
            && a.attributes == b.attributes && a.supplementary == b.supplementary && a.placeholder == b.placeholder
    }
}
