public import Adaptors

/// One section of a layout record: one content item (or one row group of it).
public struct LayoutSection: Sendable, Equatable {
    /// Stable id from the tree path (`#group=value` appended for row groups).
    public var id: String
    public var index: Int
    /// The content item's `@type`.
    public var type: String
    public var adaptor: String
    public var visible: Bool
    /// The id of the nearest enclosing content item's section, if any.
    public var parent: String?
    /// The group-by path and this group's value as JSON, for grouped sections.
    public var group: (by: String, valueJSON: [UInt8])?
    public var attributes: [Attribute]
    public var supplementary: [SupplementaryView]
    public var placeholder: LayoutPlaceholder?
    public var rows: [LayoutRow]

    public init(id: String, index: Int, type: String, adaptor: String, visible: Bool, parent: String?,
                group: (by: String, valueJSON: [UInt8])? = nil, attributes: [Attribute] = [], supplementary: [SupplementaryView] = [],
                placeholder: LayoutPlaceholder? = nil, rows: [LayoutRow] = []) {
        self.id = id
        self.index = index
        self.type = type
        self.adaptor = adaptor
        self.visible = visible
        self.parent = parent
        self.group = group
        self.attributes = attributes
        self.supplementary = supplementary
        self.placeholder = placeholder
        self.rows = rows
    }

    /// A section of `head`'s fields with `rows`.
    public init(head: SectionHead, rows: [LayoutRow]) {
        self.init(id: head.id, index: head.index, type: head.type, adaptor: head.adaptor, visible: head.visible, parent: head.parent,
                  group: head.group, attributes: head.attributes, supplementary: head.supplementary, placeholder: head.placeholder, rows: rows)
    }

    /// The section's fields other than its rows.
    public var head: SectionHead {
        SectionHead(id: id, index: index, type: type, adaptor: adaptor, visible: visible, parent: parent, group: group,
                    attributes: attributes, supplementary: supplementary, placeholder: placeholder)
    }

    public static func == (a: LayoutSection, b: LayoutSection) -> Bool {
        a.id == b.id && a.index == b.index && a.type == b.type && a.adaptor == b.adaptor && a.visible == b.visible
            && a.parent == b.parent && a.group?.by == b.group?.by && a.group?.valueJSON == b.group?.valueJSON
            && a.attributes == b.attributes && a.supplementary == b.supplementary && a.placeholder == b.placeholder && a.rows == b.rows
    }
}
