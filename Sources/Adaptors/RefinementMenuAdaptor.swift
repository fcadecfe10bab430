public import ContentTree
import LayoutJSON

/// Refinement menus: a row per refinement; dimension facts and more/less links as attributes.
public struct RefinementMenuAdaptor: ContentItemAdaptor {
    public let name = AdaptorName.refinementMenu.rawValue
    /// How refinement ids are found (the dimension value spec is stable across navigation states).
    public var reader = RowReader(idPaths: [
        .known(#"properties["DGraph.Spec"]"#), .known("label"), .known("navigationState"),
    ])

    public init() {}

    static let refinements: JSONKey = "refinements"
    static let moreLink: JSONKey = "moreLink"
    static let lessLink: JSONKey = "lessLink"
    static let dimensionName: JSONKey = "dimensionName"
    static let displayName: JSONKey = "displayName"
    static let multiSelect: JSONKey = "multiSelect"

    public func adapt(_ item: ContentItem, in tree: ContentTree, options: AdaptorOptions) -> AdaptedSection {
        let doc = tree.document
        var (section, readable) = reader.section(from: Self.refinements, of: item, in: doc)
        guard readable else { return section }
        if section.rows.isEmpty && options.emptyMenusShowNoResults { section.placeholder = .noResults }
        section.attributes.reserveCapacity(5)
        if let s = doc.value(item.node, Self.dimensionName).flatMap(doc.string) {
            section.attributes.append(Attribute("dimensionName", .string(s)))
        }
        if let s = doc.value(item.node, Self.displayName).flatMap(doc.string) {
            section.attributes.append(Attribute("displayName", .string(s)))
        }
        if let b = doc.value(item.node, Self.multiSelect).flatMap(doc.bool) {
            section.attributes.append(Attribute("multiSelect", .bool(b)))
        }
        if let more = doc.value(item.node, Self.moreLink).flatMap({ RowAction.read($0, in: doc, as: .navigate) }) {
            section.attributes.append(Attribute("moreLink", .action(more)))
        }
        if let less = doc.value(item.node, Self.lessLink).flatMap({ RowAction.read($0, in: doc, as: .navigate) }) {
            section.attributes.append(Attribute("lessLink", .action(less)))
        }
        return section
    }
}
