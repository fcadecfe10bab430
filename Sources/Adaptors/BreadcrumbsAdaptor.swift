public import ContentTree
import LayoutJSON

/// Breadcrumbs: a row per refinement, search and range crumb (in that order); remove-all as an attribute.
public struct BreadcrumbsAdaptor: ContentItemAdaptor {
    public let name = AdaptorName.breadcrumbs.rawValue

    static let fields: [(key: JSONKey, reader: RowReader)] = [
        (
            "refinementCrumbs",
            RowReader(
                idPaths: [
                    .known(#"properties["DGraph.Spec"]"#), .known("label"), .known("removeAction.navigationState"),
                ], idPrefix: "refinement:")
        ),
        (
            "searchCrumbs",
            RowReader(
                idPaths: [.known("terms"), .known("label"), .known("removeAction.navigationState")], idPrefix: "search:"
            )
        ),
        (
            "rangeFilterCrumbs",
            RowReader(idPaths: [.known("removeAction.navigationState"), .known("propertyName")], idPrefix: "range:")
        ),
    ]
    static let removeAllAction: JSONKey = "removeAllAction"

    public init() {}

    public func adapt(_ item: ContentItem, in tree: ContentTree, options: AdaptorOptions) -> AdaptedSection {
        let doc = tree.document
        var section = AdaptedSection()
        for field in Self.fields {
            let (read, readable) = field.reader.section(from: field.key, of: item, in: doc)
            guard readable else { return read }
            section.rows.append(contentsOf: read.rows)
        }
        if let action = doc.value(item.node, Self.removeAllAction).flatMap({ RowAction.read($0, in: doc, as: .remove) })
        {
            section.attributes.append(Attribute("removeAll", .action(action)))
        }
        return section
    }
}
