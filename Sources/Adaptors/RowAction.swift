public import LayoutJSON

/// What selecting a row does, with Endeca's action objects reduced to a kind and a target.
public struct RowAction: Sendable, Equatable {
    /// The kinds of actions a renderer handles.
    public enum Kind: String, Sendable {
        /// Go to another navigation state (refinement, sort option, paging, "more" link).
        case navigate
        /// Open a record's detail page.
        case record
        /// Remove a filter (breadcrumb).
        case remove
        /// Follow a configured link (menu item).
        case link
    }

    public var kind: Kind
    /// The siteRootPath-relative target: `contentPath` followed by the navigation or record state.
    public var target: String
    /// The site root the target is relative to, when the response gives one.
    public var siteRootPath: String?
    /// The action's own label, when it has one.
    public var label: String?

    public init(kind: Kind, target: String, siteRootPath: String? = nil, label: String? = nil) {
        self.kind = kind
        self.target = target
        self.siteRootPath = siteRootPath
        self.label = label
    }

    static let navigationState: JSONKey = "navigationState"
    static let recordState: JSONKey = "recordState"
    static let contentPath: JSONKey = "contentPath"
    static let siteRootPath: JSONKey = "siteRootPath"
    static let label: JSONKey = "label"
    static let path: JSONKey = "path"
    static let queryString: JSONKey = "queryString"
    static let linkType: JSONKey = "linkType"
    static let detailsAction: JSONKey = "detailsAction"
    static let removeAction: JSONKey = "removeAction"
    static let link: JSONKey = "link"

    /// Reads an action object (NavigationAction, RecordAction, Refinement, LinkBuilder, ...) as `kind`.
    public static func read(_ node: Int, in doc: JSONDocument, as kind: Kind) -> RowAction? {
        guard doc.kind(node) == .object else { return nil }
        let contentPath = doc.value(node, Self.contentPath).flatMap(doc.string) ?? ""
        let root = doc.value(node, Self.siteRootPath).flatMap(doc.string)
        let label = doc.value(node, Self.label).flatMap(doc.string)
        if let state = doc.value(node, Self.recordState).flatMap(doc.string) {
            return RowAction(kind: kind == .navigate ? .record : kind, target: contentPath + state, siteRootPath: root, label: label)
        }
        if let state = doc.value(node, Self.navigationState).flatMap(doc.string) {
            return RowAction(kind: kind, target: contentPath + state, siteRootPath: root, label: label)
        }
        if doc.value(node, Self.linkType) != nil || kind == .link {
            guard let path = doc.value(node, Self.path).flatMap(doc.string) else { return nil }
            let query = doc.value(node, Self.queryString).flatMap(doc.string).map { $0.isEmpty ? "" : "?" + $0 } ?? ""
            return RowAction(kind: .link, target: path + query, siteRootPath: root, label: label)
        }
        return nil
    }

    /// The action a row model carries: its own state, else `detailsAction`, `removeAction` or `link`.
    public static func forRow(_ node: Int, in doc: JSONDocument) -> RowAction? {
        guard doc.kind(node) == .object else { return nil }
        if let details = doc.value(node, Self.detailsAction), let action = read(details, in: doc, as: .record) { return action }
        if let remove = doc.value(node, Self.removeAction), let action = read(remove, in: doc, as: .remove) { return action }
        if let action = read(node, in: doc, as: .navigate), doc.value(node, Self.linkType) == nil { return action }
        if let link = doc.value(node, Self.link), let action = read(link, in: doc, as: .link) { return action }
        return nil
    }
}
