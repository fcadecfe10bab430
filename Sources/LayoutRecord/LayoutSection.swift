import Adaptors

/// One section of a layout record: one content item (or one row group of it). Its fields other than the rows
/// live in `head` and read as the section's own (`section.id`, `section.type`, ...).
@dynamicMemberLookup
public struct LayoutSection: Sendable, Equatable {
    /// Everything but the rows: id, path, index, type, adaptor, visibility, parent, group, attributes, views, placeholder.
    public var head: SectionHead
    public var rows: [LayoutRow]

    /// A section of `head`'s fields with `rows`.
    public init(head: SectionHead, rows: [LayoutRow]) {
        self.head = head
        self.rows = rows
    }

    /// A field of the section's head.
    public subscript<Value>(dynamicMember field: WritableKeyPath<SectionHead, Value>) -> Value {
        get { head[keyPath: field] }
        set { head[keyPath: field] = newValue }
    }
}
