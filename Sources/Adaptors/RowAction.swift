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
    /// The siteRootPath-relative target, in two parts written back to back: `contentPath` and the navigation or record state.
    public var target: (TextPart, TextPart)
    /// The site root the target is relative to, when the response gives one.
    public var siteRootPath: TextPart?
    /// The action's own label, when it has one.
    public var label: TextPart?

    public init(kind: Kind, target: (TextPart, TextPart), siteRootPath: TextPart? = nil, label: TextPart? = nil) {
        self.kind = kind
        self.target = target
        self.siteRootPath = siteRootPath
        self.label = label
    }

    /// The full target as text.
    public func targetText(in doc: JSONDocument) -> String { target.0.text(in: doc) + target.1.text(in: doc) }

    public static func == (a: RowAction, b: RowAction) -> Bool {
        a.kind == b.kind && a.target.0 == b.target.0 && a.target.1 == b.target.1 && a.siteRootPath == b.siteRootPath && a.label == b.label
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
        func stringNode(_ key: JSONKey) -> Int? {
            guard let v = doc.value(node, key), doc.kind(v) == .string else { return nil }
            return v
        }
        let contentPath = stringNode(Self.contentPath).map(TextPart.node) ?? .text("")
        let root = stringNode(Self.siteRootPath).map(TextPart.node)
        let label = stringNode(Self.label).map(TextPart.node)
        if let state = stringNode(Self.recordState) {
            return RowAction(kind: kind == .navigate ? .record : kind, target: (contentPath, .node(state)), siteRootPath: root, label: label)
        }
        if let state = stringNode(Self.navigationState) {
            return RowAction(kind: kind, target: (contentPath, .node(state)), siteRootPath: root, label: label)
        }
        if doc.value(node, Self.linkType) != nil || kind == .link {
            guard let path = stringNode(Self.path) else { return nil }
            let query = stringNode(Self.queryString).flatMap(doc.string).map { $0.isEmpty ? "" : "?" + $0 } ?? ""
            return RowAction(kind: .link, target: (.node(path), .text(query)), siteRootPath: root, label: label)
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
