public import ContentTree
public import LayoutJSON

/// The configurable adaptor for every other type: rows from a named array field, one row, none, or automatic.
public struct GenericAdaptor: ContentItemAdaptor {
    /// Where rows come from.
    public enum Rows: Sendable, Equatable {
        /// A row per element of this array field.
        case field(String)
        /// Exactly one row: the item itself.
        case one
        /// No rows.
        case none
        /// A container when the item has child content items, else one row.
        case auto
    }

    public let name = AdaptorName.generic.rawValue
    public var rows: Rows
    public var reader: RowReader

    /// A generic adaptor; `idPaths` name where row ids come from (default: `id`, `repositoryId`, `navigationState`,
    /// `label`, `name`).
    public init(rows: Rows, idPaths: [FieldPath]? = nil) {
        self.rows = rows
        self.reader = RowReader(
            idPaths: idPaths ?? [
                .known("id"), .known("repositoryId"), .known("navigationState"), .known("label"), .known("name"),
            ])
    }

    public func adapt(_ item: ContentItem, in tree: ContentTree, options: AdaptorOptions) -> AdaptedSection {
        var section = AdaptedSection()
        switch rows {
        case .none:
            break
        case .one:
            section.rows = [
                AdaptedRow(node: item.node, id: "0", action: RowAction.forRow(item.node, in: tree.document))
            ]
        case .auto:
            if item.childCount == 0 {
                section.rows = [
                    AdaptedRow(node: item.node, id: "0", action: RowAction.forRow(item.node, in: tree.document))
                ]
            } else {
                section.isContainer = true
            }
        case .field(let name):
            let (read, readable) = reader.section(from: JSONKey(name), of: item, in: tree.document)
            guard readable else { return read }
            section.rows = read.rows
        }
        return section
    }
}
