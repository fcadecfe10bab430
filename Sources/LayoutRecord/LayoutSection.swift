public import Adaptors

/// One section of a layout record: one content item (or one row group of it). Its fields other than the rows
/// live in `head` and read as the section's own (`section.id`, `section.type`, ...).
@dynamicMemberLookup
public struct LayoutSection: Sendable, Equatable {
    /// Everything but the rows: id, index, type, adaptor, visibility, parent, group, attributes, views, placeholder.
    public var head: SectionHead
    public var rows: [LayoutRow]

    /// A section of `head`'s fields with `rows`.
    public init(head: SectionHead, rows: [LayoutRow]) {
        self.head = head
        self.rows = rows
    }

    public init(
        id: String, index: Int, type: String, adaptor: String, visible: Bool, parent: String?,
        group: (by: String, valueJSON: [UInt8])? = nil, attributes: [Attribute] = [],
        supplementary: [SupplementaryView] = [],
        placeholder: LayoutPlaceholder? = nil, rows: [LayoutRow] = []
    ) {
        self.init(
            head: SectionHead(
                id: id, index: index, type: type, adaptor: adaptor, visible: visible, parent: parent, group: group,
                attributes: attributes, supplementary: supplementary, placeholder: placeholder),
            rows: rows)
    }

    /// A field of the section's head.
    public subscript<Value>(dynamicMember field: WritableKeyPath<SectionHead, Value>) -> Value {
        get { head[keyPath: field] }
        set { head[keyPath: field] = newValue }
    }
}
