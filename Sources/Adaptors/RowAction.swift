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
        a.kind == b.kind && a.target.0 == b.target.0 && a.target.1 == b.target.1 && a.siteRootPath == b.siteRootPath
            && a.label == b.label
    }

    /// The keys an action object (or a row that is one, or holds one) may carry, in `Field` order.
    static let keys = JSONKeyTable([
        "contentPath", "siteRootPath", "label", "recordState", "navigationState", "linkType",
        "path", "queryString", "detailsAction", "removeAction", "link",
    ])
    enum Field: Int {
        case contentPath, siteRootPath, label, recordState, navigationState, linkType, path, queryString, detailsAction,
            removeAction, link
    }

    /// Reads an action object (NavigationAction, RecordAction, Refinement, LinkBuilder, ...) as `kind`.
    public static func read(_ node: Int, in doc: JSONDocument, as kind: Kind) -> RowAction? {
        guard doc.kind(node) == .object else { return nil }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { found in
            doc.values(node, keys, into: found)
            return read(UnsafeBufferPointer(found), in: doc, as: kind)
        }
    }

    /// An action from the fields found in one pass over its object.
    static func read(_ found: UnsafeBufferPointer<Int>, in doc: JSONDocument, as kind: Kind) -> RowAction? {
        func string(_ f: Field) -> Int? {
            let v = found[f.rawValue]
            return v >= 0 && doc.kind(v) == .string ? v : nil
        }
        let contentPath = string(.contentPath).map(TextPart.node) ?? .empty
        let root = string(.siteRootPath).map(TextPart.node)
        let label = string(.label).map(TextPart.node)
        if let state = string(.recordState) {
            return RowAction(
                kind: kind == .navigate ? .record : kind, target: (contentPath, .node(state)), siteRootPath: root,
                label: label)
        }
        if let state = string(.navigationState) {
            return RowAction(kind: kind, target: (contentPath, .node(state)), siteRootPath: root, label: label)
        }
        if found[Field.linkType.rawValue] >= 0 || kind == .link {
            guard let path = string(.path) else { return nil }
            return RowAction(
                kind: .link, target: (.node(path), string(.queryString).map(TextPart.query) ?? .empty),
                siteRootPath: root, label: label)
        }
        return nil
    }

    /// The action a row model carries: its `detailsAction`, else `removeAction`, else its own state, else its `link`.
    public static func forRow(_ node: Int, in doc: JSONDocument) -> RowAction? {
        guard doc.kind(node) == .object else { return nil }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { buffer in
            doc.values(node, keys, into: buffer)
            return forRow(found: UnsafeBufferPointer(buffer), in: doc)
        }
    }

    /// The action of a row whose members `found` holds (one pass over the row's object).
    static func forRow(found: UnsafeBufferPointer<Int>, in doc: JSONDocument) -> RowAction? {
        if found[Field.detailsAction.rawValue] >= 0,
            let action = read(found[Field.detailsAction.rawValue], in: doc, as: .record)
        {
            return action
        }
        if found[Field.removeAction.rawValue] >= 0,
            let action = read(found[Field.removeAction.rawValue], in: doc, as: .remove)
        {
            return action
        }
        if found[Field.linkType.rawValue] < 0, let action = read(found, in: doc, as: .navigate) { return action }
        if found[Field.link.rawValue] >= 0, let action = read(found[Field.link.rawValue], in: doc, as: .link) {
            return action
        }
        return nil
    }
}
