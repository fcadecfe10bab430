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
        // A path is built only for content items, from a chain of segments (parent segment, key node or index).
        var segments: [Segment] = [Segment(parent: -1, keyNode: -1, index: -1)]
        var frames: [Frame] = []
        var scratch = PathScratch()
        // Room for a typical page (a few dozen items a few levels deep), so the walk rarely regrows these.
        items.reserveCapacity(32)
        segments.reserveCapacity(64)
        frames.reserveCapacity(16)
        scratch.chain.reserveCapacity(16)
        scratch.bytes.reserveCapacity(128)
        let rootKind = document.nodes[document.root].kind
        document.nodes.withUnsafeBufferPointer { nodes in
            if (rootKind == .object || rootKind == .array) && nodes[document.root].flags & JSONNode.Flags.itemsBelow != 0 {
                Self.visit(document.root, segment: 0, owner: nil, nodes, document, &items, &diagnostics, &segments, &scratch, &frames)
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
                if (node.kind == .object || node.kind == .array) && node.count > 0 && node.flags & JSONNode.Flags.itemsBelow != 0 {
                    segments.append(Segment(parent: frame.segment, keyNode: keyNode, index: frame.ordinal))
                    Self.visit(child, segment: segments.count - 1, owner: frame.owner, nodes, document, &items, &diagnostics, &segments, &scratch, &frames)
                }
            }
        }
        self.items = items
        self.diagnostics = diagnostics
    }

    struct Segment {
        let parent: Int
        let keyNode: Int
        let index: Int
    }

    struct Frame {
        let node: Int
        let segment: Int
        let owner: Int?
        let isObject: Bool
        var cursor: Int
        var ordinal: Int
        let remaining: Int
    }

    /// Scratch space for writing paths: the segment chain and the bytes.
    struct PathScratch {
        var chain: [Int] = []
        var bytes: [UInt8] = []
    }

    /// The path of a segment, written root-first from its chain of parents.
    static func path(of segment: Int, _ segments: [Segment], _ scratch: inout PathScratch, _ document: JSONDocument) -> String {
        scratch.chain.removeAll(keepingCapacity: true)
        var s = segment
        while s > 0 {
            scratch.chain.append(s)
            s = segments[s].parent
        }
        scratch.bytes.removeAll(keepingCapacity: true)
        for s in scratch.chain.reversed() {
            let seg = segments[s]
            if seg.keyNode >= 0 {
                let node = document.nodes[seg.keyNode]
                if node.flags & JSONNode.Flags.escaped == 0 {
                    TreePath.append(key: document.bytes[Int(node.start) + 1..<Int(node.end) - 1], to: &scratch.bytes)
                } else {
                    TreePath.append(key: document.decodedStringBytes(seg.keyNode), to: &scratch.bytes)
                }
            } else {
                TreePath.append(index: seg.index, to: &scratch.bytes)
            }
        }
        return TreePath.text(scratch.bytes)
    }

    /// Records node `i` as a content item when it is one, and queues it for walking.
    static func visit(_ i: Int, segment: Int, owner: Int?, _ nodes: UnsafeBufferPointer<JSONNode>,
                      _ document: JSONDocument, _ items: inout [ContentItem], _ diagnostics: inout [Diagnostic],
                      _ segments: inout [Segment], _ scratch: inout PathScratch, _ frames: inout [Frame]) {
        let node = nodes[i]
        var owner = owner
        if node.kind == .object && node.flags & (JSONNode.Flags.typeKey | JSONNode.Flags.classKey | JSONNode.Flags.escapedKey) != 0 {
            var typeNode = -1
            var hasClass = false
            var k = i &+ 1
            // Only objects the reader flagged for an @type, @class or escaped key get here.
            for _ in 0..<node.count {
                if typeNode < 0 && document.stringEquals(k, typeKey) { typeNode = k &+ 1 }
                else if document.stringEquals(k, classKey) { hasClass = true }
                k = Int(nodes[k &+ 1].next)
            }
            if typeNode >= 0 {
                if nodes[typeNode].kind == .string, let type = document.string(typeNode) {
                    if hasClass {
                        diagnostics.append(Diagnostic(.warning, "type-and-class", path: path(of: segment, segments, &scratch, document),
                            "object has both @type and @class; treated as a model object, not a content item"))
                    } else {
                        let index = items.count
                        let depth = owner.map { items[$0].depth &+ 1 } ?? 0
                        items.append(ContentItem(node: i, type: type, path: path(of: segment, segments, &scratch, document), parent: owner, children: [], depth: depth))
                        if let owner { items[owner].children.append(index) }
                        owner = index
                    }
                } else {
                    let kind = nodes[typeNode].kind
                    diagnostics.append(Diagnostic(.warning, "invalid-type", path: path(of: segment, segments, &scratch, document),
                        "@type is \(kind == .null ? "null" : "a \(kind)"), not a string; the object is not treated as a content item"))
                }
            }
        }
        frames.append(Frame(node: i, segment: segment, owner: owner, isObject: node.kind == .object, cursor: i &+ 1, ordinal: 0, remaining: Int(node.count)))
    }

    /// The index of the content item at `path` (the server-side `indexOfContentItem:`).
    public func indexOfContentItem(atPath path: String) -> Int? { items.firstIndex { $0.path == path } }

    /// Whether the root value is itself a content item.
    public var rootIsContentItem: Bool { items.first?.node == document.root }
}
