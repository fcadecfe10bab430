/// Re-indents a parsed document with two spaces, keeping every string and number as written.
public enum JSONPrettyPrinter {
    /// The document's root value, indented.
    public static func format(_ doc: JSONDocument) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(doc.bytes.count * 2)
        // Explicit stack of (container node, next child node, children left) — no recursion.
        var stack: [(node: Int, next: Int, left: Int)] = []
        var pending: Int? = doc.root
        func newline(_ depth: Int) {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: depth * 2))
        }
        while true {
            if let i = pending {
                pending = nil
                let node = doc.nodes[i]
                switch node.kind {
                case .object, .array:
                    out.append(node.kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
                    if node.count == 0 {
                        out.append(node.kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                    } else {
                        stack.append((i, i + 1, Int(node.count)))
                    }
                default:
                    out.append(contentsOf: doc.raw(i))
                }
            }
            guard let top = stack.last else { break }
            let isObject = doc.nodes[top.node].kind == .object
            if top.left == 0 {
                stack.removeLast()
                newline(stack.count)
                out.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                continue
            }
            if top.next != top.node + 1 { out.append(UInt8(ascii: ",")) }
            newline(stack.count)
            var child = top.next
            if isObject {
                out.append(contentsOf: doc.raw(child))
                out.append(contentsOf: [UInt8(ascii: ":"), 0x20])
                child += 1
            }
            stack[stack.count - 1].next = Int(doc.nodes[child].next)
            stack[stack.count - 1].left -= 1
            pending = child
        }
        out.append(0x0A)
        return out
    }
}
