public import LayoutJSON

/// The content items of one response, parent-first in document order, over its JSON tape.
public struct ContentTree: Sendable {
    /// The parsed response.
    public let document: JSONDocument
    /// Every content item, parent before children, in document order.
    public let items: [ContentItem]
    /// Problems found while building the tree (e.g. a non-string `@type`).
    public let diagnostics: [Diagnostic]

    static let typeKey: JSONKey = "@type"
    static let classKey: JSONKey = "@class"

    /// Finds every content item in `document`, wherever it sits.
    public init(document: JSONDocument) {
        self.document = document
        var items: [ContentItem] = []
        var diagnostics: [Diagnostic] = []
        var frames: [Frame] = []
        // The path of the container being entered, written once per step down: a frame keeps its own path's
        // length, and a child's path is that prefix plus the child's key or index.
        var path: [UInt8] = []
        // Room for a typical page (a few dozen items a few levels deep), so the walk rarely regrows these.
        items.reserveCapacity(32)
        frames.reserveCapacity(16)
        path.reserveCapacity(128)
        let rootKind = document.nodes[document.root].kind
        document.nodes.withUnsafeBufferPointer { nodes in
            if (rootKind == .object || rootKind == .array)
                && nodes[document.root].flags & JSONNode.Flags.itemsBelow != 0
            {
                Self.visit(document.root, owner: nil, nodes, document, &items, &diagnostics, path, &frames)
            }
            while let top = frames.indices.last {
                if frames[top].ordinal == frames[top].remaining {
                    frames.removeLast()
                    continue
                }
                let frame = frames[top]
                frames[top].ordinal &+= 1
                let keyNode: Int
                let child: Int
                if frame.isObject {
                    keyNode = frame.cursor
                    child = keyNode &+ 1
                } else {
                    keyNode = -1
                    child = frame.cursor
                }
                let node = nodes[child]
                frames[top].cursor = Int(node.next)
                // Containers are flagged by the reader when a content item may sit inside; others are skipped whole.
                if (node.kind == .object || node.kind == .array) && node.count > 0
                    && node.flags & JSONNode.Flags.itemsBelow != 0
                {
                    path.removeSubrange(frame.pathLength...)
                    if keyNode >= 0 {
                        let key = nodes[keyNode]
                        if key.flags & JSONNode.Flags.escaped == 0 {
                            TreePath.append(key: document.bytes[Int(key.start) + 1..<Int(key.end) - 1], to: &path)
                        } else {
                            TreePath.append(key: document.decodedStringBytes(keyNode), to: &path)
                        }
                    } else {
                        TreePath.append(index: frame.ordinal, to: &path)
                    }
                    Self.visit(child, owner: frame.owner, nodes, document, &items, &diagnostics, path, &frames)
                }
            }
        }
        self.items = items
        self.diagnostics = diagnostics
    }

    struct Frame {
        let node: Int
        let owner: Int?
        let isObject: Bool
        var cursor: Int
        var ordinal: Int
        let remaining: Int
        /// The length of the container's own path.
        let pathLength: Int
    }

    /// Records node `i` (at `path`) as a content item when it is one, and queues it for walking.
    static func visit(
        _ i: Int, owner: Int?, _ nodes: UnsafeBufferPointer<JSONNode>,
        _ document: JSONDocument, _ items: inout [ContentItem], _ diagnostics: inout [Diagnostic],
        _ path: [UInt8], _ frames: inout [Frame]
    ) {
        let node = nodes[i]
        var owner = owner
        // Only objects the reader flagged for an @type or escaped key get here (one with only @class is a model object).
        if node.kind == .object && node.flags & (JSONNode.Flags.typeKey | JSONNode.Flags.escapedKey) != 0 {
            var typeNode = -1
            let mayHaveClass = node.flags & (JSONNode.Flags.classKey | JSONNode.Flags.escapedKey) != 0
            var hasClass = false
            var k = i &+ 1
            for _ in 0..<node.count {
                if typeNode < 0 && document.stringEquals(k, typeKey) {
                    typeNode = k &+ 1
                } else if mayHaveClass && !hasClass && document.stringEquals(k, classKey) {
                    hasClass = true
                }
                if typeNode >= 0 && (hasClass || !mayHaveClass) { break }
                k = Int(nodes[k &+ 1].next)
            }
            // A repeated `@type` (rare: flagged by the reader, or possible behind an escaped key) is reported: the
            // first is used here, while JavaScript's and Python's parsers keep the last, so clients could disagree.
            if typeNode >= 0 && node.flags & (JSONNode.Flags.repeatedTypeKey | JSONNode.Flags.escapedKey) != 0 {
                var values = [document.raw(typeNode)]
                var k = i &+ 1
                for _ in 0..<node.count {
                    if k &+ 1 != typeNode && document.stringEquals(k, typeKey) { values.append(document.raw(k &+ 1)) }
                    k = Int(nodes[k &+ 1].next)
                }
                if values.count > 1 {
                    let shown = values.prefix(5).map { String(decoding: $0.prefix(200), as: UTF8.self) }
                    diagnostics.append(
                        Diagnostic(
                            .warning, .duplicateType, path: TreePath.text(path),
                            "@type appears \(values.count) times (\(shown.joined(separator: ", "))); the first is used, but parsers that keep the last key (JavaScript, Python) see \(shown.last!)"
                        ))
                }
            }
            if typeNode >= 0 {
                if nodes[typeNode].kind == .string, let type = document.string(typeNode) {
                    if hasClass {
                        diagnostics.append(
                            Diagnostic(
                                .warning, .typeAndClass, path: TreePath.text(path),
                                "object has both @type and @class; treated as a model object, not a content item"))
                    } else {
                        let index = items.count
                        let depth = owner.map { items[$0].depth &+ 1 } ?? 0
                        items.append(
                            ContentItem(
                                node: i, type: type, path: TreePath.text(path), parent: owner, childCount: 0,
                                depth: depth))
                        if let owner { items[owner].childCount &+= 1 }
                        owner = index
                    }
                } else {
                    let kind = nodes[typeNode].kind
                    diagnostics.append(
                        Diagnostic(
                            .warning, .invalidType, path: TreePath.text(path),
                            "@type is \(kind == .null ? "null" : "a \(kind)"), not a string; the object is not treated as a content item"
                        ))
                }
            }
        }
        frames.append(
            Frame(
                node: i, owner: owner, isObject: node.kind == .object, cursor: i &+ 1, ordinal: 0,
                remaining: Int(node.count),
                pathLength: path.count))
    }

    /// The index of the content item at `path` (the server-side `indexOfContentItem:`).
    public func indexOfContentItem(atPath path: String) -> Int? { items.firstIndex { $0.path == path } }

    /// Indexes of the content items directly below item `index`, in document order.
    public func children(of index: Int) -> [Int] {
        var children: [Int] = []
        children.reserveCapacity(items[index].childCount)
        // Items are listed parent first, so an item's descendants follow it, deeper than it, until the next sibling.
        var i = index + 1
        while i < items.count && items[i].depth > items[index].depth {
            if items[i].parent == index { children.append(i) }
            i += 1
        }
        return children
    }

    /// Whether the root value is itself a content item.
    public var rootIsContentItem: Bool { items.first?.node == document.root }
}
