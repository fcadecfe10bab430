import LayoutKit

/// A parsed JSON text: the input bytes and a tape of nodes that point into them. Immutable; shared by reference.
public final class JSONDocument: Sendable {
    /// The input, unchanged (including a leading BOM if there was one).
    public let bytes: [UInt8]
    /// All values in document order; node 0 is the root, and containers precede their children.
    public let nodes: [JSONNode]

    /// Index of the root value.
    public var root: Int { 0 }

    public init(bytes: [UInt8], nodes: [JSONNode]) {
        self.bytes = bytes
        self.nodes = nodes
    }

    /// The kind of node `i`.
    @inlinable public func kind(_ i: Int) -> JSONKind { nodes[i].kind }

    /// The raw bytes of node `i`, exactly as they appear in the input.
    @inlinable public func raw(_ i: Int) -> ArraySlice<UInt8> { bytes[nodes[i].range] }

    /// The (key node, value node) pairs of object `i`, in document order.
    public func members(_ i: Int) -> MemberSequence {
        MemberSequence(nodes: nodes, first: i + 1, count: nodes[i].kind == .object ? Int(nodes[i].count) : 0)
    }

    /// The element nodes of array `i`, in document order.
    public func elements(_ i: Int) -> ElementSequence {
        ElementSequence(nodes: nodes, first: i + 1, count: nodes[i].kind == .array ? Int(nodes[i].count) : 0)
    }

    /// The value of member `key` of object `i` (the first one when a key repeats), or nil.
    public func value(_ i: Int, _ key: JSONKey) -> Int? { key.withUTF8 { value(i, utf8: $0) } }

    /// The value of the member of object `i` whose key decodes to the bytes `k` (the first one when a key repeats), or nil.
    public func value(_ i: Int, utf8 k: UnsafeBufferPointer<UInt8>) -> Int? {
        nodes.withUnsafeBufferPointer { n in
            guard n[i].kind == .object else { return nil }
            return bytes.withUnsafeBufferPointer { b in
                let want = UInt32(k.count + 2)
                var c = i + 1
                for _ in 0..<n[i].count {
                    let node = n[c]
                    if node.flags & JSONNode.Flags.escaped == 0 {
                        if node.end - node.start == want
                            && (k.count == 0
                                || memcmpEqual(b.baseAddress! + Int(node.start) + 1, k.baseAddress!, k.count))
                        {
                            return c + 1
                        }
                    } else if decodedStringBytes(c).elementsEqual(k) {
                        return c + 1
                    }
                    c = Int(n[c + 1].next)
                }
                return nil
            }
        }
    }

    /// One pass over object `i`'s members: `found[k]` becomes the value node of `table`'s key `k` (first occurrence), or -1.
    public func values(_ i: Int, _ table: JSONKeyTable, into found: inout [Int]) {
        found.removeAll(keepingCapacity: true)
        found.append(contentsOf: repeatElement(-1, count: table.count))
        found.withUnsafeMutableBufferPointer { values(i, table, into: $0) }
    }

    /// `values(_:_:into:)` into a buffer of at least `table.count` slots (e.g. a temporary allocation).
    public func values(_ i: Int, _ table: JSONKeyTable, into f: UnsafeMutableBufferPointer<Int>) {
        let keyCount = table.count
        precondition(f.count >= keyCount, "the buffer holds fewer slots than the table has keys")
        for k in 0..<keyCount { f[k] = -1 }
        guard nodes[i].kind == .object, keyCount > 0 else { return }
        var missing = keyCount
        nodes.withUnsafeBufferPointer { n in
            bytes.withUnsafeBufferPointer { b in
                table.bytes.withUnsafeBufferPointer { kb in
                    table.spans.withUnsafeBufferPointer { spans in
                        table.keysByLength.withUnsafeBufferPointer { lengths in
                            // Marks the first still-missing key equal to `length` bytes at `name`; only keys of
                            // that length are compared.
                            func match(_ name: UnsafePointer<UInt8>, _ length: Int, value: Int) {
                                var candidates = lengths[JSONKeyTable.lengthSlot(length)]
                                while candidates != 0 {
                                    let k = candidates.trailingZeroBitCount
                                    candidates &= candidates &- 1
                                    if f[k] < 0 && spans[k].length == length
                                        && memcmpEqual(name, kb.baseAddress! + spans[k].start, length)
                                    {
                                        f[k] = value
                                        missing &-= 1
                                        return
                                    }
                                }
                            }
                            var c = i &+ 1
                            for _ in 0..<n[i].count where missing > 0 {
                                let node = n[c]
                                if node.flags & JSONNode.Flags.escaped == 0 {
                                    match(
                                        b.baseAddress! + (Int(node.start) &+ 1), Int(node.end &- node.start) &- 2,
                                        value: c &+ 1)
                                } else {
                                    // An empty decoded key still needs a valid pointer: it is compared over 0 bytes.
                                    var decoded = decodedStringBytes(c)
                                    decoded.append(0)
                                    decoded.withUnsafeBufferPointer {
                                        match($0.baseAddress!, $0.count &- 1, value: c &+ 1)
                                    }
                                }
                                c = Int(n[c &+ 1].next)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Element `index` of array `i`, or nil.
    public func element(_ i: Int, _ index: Int) -> Int? {
        guard nodes[i].kind == .array, index >= 0, index < Int(nodes[i].count) else { return nil }
        var e = i + 1
        for _ in 0..<index { e = Int(nodes[e].next) }
        return e
    }

    /// Whether string node `i` decodes to exactly `utf8`.
    public func stringEquals(_ i: Int, _ utf8: [UInt8]) -> Bool { utf8.withUnsafeBufferPointer { stringEquals(i, $0) } }

    /// Whether string node `i` decodes to exactly the key's text.
    public func stringEquals(_ i: Int, _ key: JSONKey) -> Bool { key.withUTF8 { stringEquals(i, $0) } }

    /// Whether string node `i` decodes to exactly the bytes `utf8`.
    public func stringEquals(_ i: Int, _ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[i]
        guard node.kind == .string else { return false }
        if node.flags & JSONNode.Flags.escaped != 0 {
            return decodedStringBytes(i).elementsEqual(utf8)
        }
        let length = Int(node.end - node.start) - 2
        guard length == utf8.count else { return false }
        return length == 0
            || bytes.withUnsafeBufferPointer { b in
                memcmpEqual(b.baseAddress! + Int(node.start) + 1, utf8.baseAddress!, length)
            }
    }

    /// The decoded text of string node `i`, or nil when it is not a string.
    public func string(_ i: Int) -> String? {
        let node = nodes[i]
        guard node.kind == .string else { return nil }
        if node.flags & JSONNode.Flags.escaped == 0 {
            return String(decoding: bytes[Int(node.start) + 1..<Int(node.end) - 1], as: UTF8.self)
        }
        return String(decoding: decodedStringBytes(i), as: UTF8.self)
    }

    /// The decoded UTF-8 bytes of string node `i`.
    public func decodedStringBytes(_ i: Int) -> [UInt8] {
        let node = nodes[i]
        let inner = bytes[Int(node.start) + 1..<Int(node.end) - 1]
        if node.flags & JSONNode.Flags.escaped == 0 { return Array(inner) }
        // The reader validated every escape (and that surrogates pair): never nil here.
        return JSONEscapes.unescape(inner) ?? Array(inner)
    }

    /// Number node `i` as an integer, when it is one that fits in `Int`.
    public func int(_ i: Int) -> Int? {
        let node = nodes[i]
        guard node.kind == .number, node.flags & JSONNode.Flags.fractional == 0 else { return nil }
        var value = 0
        var negative = false
        var overflow = false
        for byte in raw(i) {
            if byte == UInt8(ascii: "-") { negative = true; continue }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) =
                negative ? m.subtractingReportingOverflow(Int(byte - 48)) : m.addingReportingOverflow(Int(byte - 48))
            if o1 || o2 { overflow = true; break }
            value = a
        }
        return overflow ? nil : value
    }

    /// Number node `i` as a double (may round; 5,000-digit numbers give ±infinity).
    public func double(_ i: Int) -> Double? {
        guard nodes[i].kind == .number else { return nil }
        return Double(String(decoding: raw(i), as: UTF8.self))
    }

    /// Boolean node `i`, or nil for other kinds.
    public func bool(_ i: Int) -> Bool? {
        switch nodes[i].kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }
}

/// Whether `n` bytes at `a` and at `b` are equal (8 bytes at a time).
@inlinable @inline(__always)
public func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i + 8 <= n {
        if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self)
            != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self)
        {
            return false
        }
        i += 8
    }
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}

/// Whether two byte slices (possibly of different buffers) hold the same bytes.
@inlinable @inline(__always)
public func sameBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    let n = a.count
    guard n == b.count else { return false }
    return a.withUnsafeBufferPointer { pa in
        b.withUnsafeBufferPointer { pb in n == 0 || memcmpEqual(pa.baseAddress!, pb.baseAddress!, n) }
    }
}

/// Iterates an object's members as (key node, value node).
public struct MemberSequence: Sequence, IteratorProtocol, Sendable {
    let nodes: [JSONNode]
    var key: Int
    var remaining: Int

    init(nodes: [JSONNode], first: Int, count: Int) {
        self.nodes = nodes
        self.key = first
        self.remaining = count
    }

    public mutating func next() -> (key: Int, value: Int)? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        let k = key
        key = Int(nodes[k + 1].next)
        return (k, k + 1)
    }
}

/// Iterates an array's element nodes.
public struct ElementSequence: Sequence, IteratorProtocol, Sendable {
    let nodes: [JSONNode]
    var current: Int
    var remaining: Int

    init(nodes: [JSONNode], first: Int, count: Int) {
        self.nodes = nodes
        self.current = first
        self.remaining = count
    }

    public mutating func next() -> Int? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        let e = current
        current = Int(nodes[e].next)
        return e
    }
}
