public import LayoutJSON

/// The content items of one response, parent-first in document order, over its JSON tape.
public struct ContentTree: Sendable {
    /// The parsed response.
    public let document: JSONDocument
    /// Every content item, parent before children, in document order.
    public let items: [ContentItem]
    /// Problems found while building the tree (e.g. a non-string `@type`).
    public let diagnostics: [Diagnostic]
    private let indexByPath: [String: Int]

    static let typeKey: JSONKey = "@type"
    static let classKey: JSONKey = "@class"

    /// Finds every content item in `document`, wherever it sits.
    public init(document: JSONDocument) {
        self.document = document
        var items: [ContentItem] = []
        var diagnostics: [Diagnostic] = []
        // A path is built only for content items, from a chain of segments (parent segment, key node or index).
        struct Segment {
            let parent: Int
            let keyNode: Int
            let index: Int
        }
        // Each frame: a container node still being walked, its segment, the nearest item, and a cursor.
        struct Frame {
            let node: Int
            let segment: Int
            let owner: Int?
            var cursor: Int
            var ordinal: Int
            let remaining: Int
        }
        let nodes = document.nodes
        var segments: [Segment] = []
        var stack: [Frame] = []
        func path(of segment: Int) -> String {
            var chain: [Int] = []
            var s = segment
            while s >= 0 {
                chain.append(s)
                s = segments[s].parent
            }
            var result = TreePath.root
            for s in chain.reversed() where s != 0 {
                let seg = segments[s]
                result = seg.keyNode >= 0
                    ? TreePath.appending(key: document.string(seg.keyNode) ?? "", to: result)
                    : TreePath.appending(index: seg.index, to: result)
            }
            return result
        }
        // Visits a value node: records a content item if it is one, and queues containers.
        func visit(_ i: Int, segment: Int, owner: Int?) {
            let node = nodes[i]
            guard node.count > 0 else { return }
            var owner = owner
            if node.kind == .object {
                var typeNode: Int?
                var hasClass = false
                var k = i + 1
                for _ in 0..<node.count {
                    if typeNode == nil, document.stringEquals(k, Self.typeKey.utf8) { typeNode = k + 1 }
                    else if !hasClass, document.stringEquals(k, Self.classKey.utf8) { hasClass = true }
                    k = Int(nodes[k + 1].next)
                }
                if let t = typeNode {
                    if nodes[t].kind == .string, let type = document.string(t) {
                        if hasClass {
                            diagnostics.append(Diagnostic(.warning, "type-and-class", path: path(of: segment),
                                "object has both @type and @class; treated as a model object, not a content item"))
                        } else {
                            let index = items.count
                            let depth = owner.map { items[$0].depth + 1 } ?? 0
                            items.append(ContentItem(node: i, type: type, path: path(of: segment), parent: owner, children: [], depth: depth))
                            if let owner { items[owner].children.append(index) }
                            owner = index
                        }
                    } else {
                        diagnostics.append(Diagnostic(.warning, "invalid-type", path: path(of: segment),
                            "@type is \(nodes[t].kind == .null ? "null" : "a \(nodes[t].kind)"), not a string; the object is not treated as a content item"))
                    }
                }
            }
            stack.append(Frame(node: i, segment: segment, owner: owner, cursor: i + 1, ordinal: 0, remaining: Int(node.count)))
        }
        segments.append(Segment(parent: -1, keyNode: -1, index: -1))
        let rootKind = nodes[document.root].kind
        if rootKind == .object || rootKind == .array { visit(document.root, segment: 0, owner: nil) }
        while !stack.isEmpty {
            let top = stack.count - 1
            if stack[top].ordinal == stack[top].remaining {
                stack.removeLast()
                continue
            }
            let frame = stack[top]
            stack[top].ordinal += 1
            let keyNode: Int
            let child: Int
            if nodes[frame.node].kind == .object {
                keyNode = frame.cursor
                child = keyNode + 1
            } else {
                keyNode = -1
                child = frame.cursor
            }
            stack[top].cursor = Int(nodes[child].next)
            let kind = nodes[child].kind
            if (kind == .object || kind == .array) && nodes[child].count > 0 {
                segments.append(Segment(parent: frame.segment, keyNode: keyNode, index: frame.ordinal))
                visit(child, segment: segments.count - 1, owner: frame.owner)
            }
        }
        self.items = items
        self.diagnostics = diagnostics
        var index: [String: Int] = [:]
        index.reserveCapacity(items.count)
        for (n, item) in items.enumerated() { index[item.path] = n }
        self.indexByPath = index
    }

    /// The index of the content item at `path` (the server-side `indexOfContentItem:`).
    public func indexOfContentItem(atPath path: String) -> Int? { indexByPath[path] }

    /// Whether the root value is itself a content item.
    public var rootIsContentItem: Bool { items.first?.node == document.root }
}
