public import LayoutJSON

/// What a condition is evaluated against: a model value and its position.
public struct ConditionContext: Sendable {
    public let document: JSONDocument
    /// The model node (a row's model, or the item for supplementary views and placeholders).
    public var model: Int
    public var row: Int
    public let section: Int
    public let sectionType: String

    public init(document: JSONDocument, model: Int, row: Int, section: Int, sectionType: String) {
        self.document = document
        self.model = model
        self.row = row
        self.section = section
        self.sectionType = sectionType
    }
}

/// A value met while evaluating a condition.
enum ConditionValue {
    case missing
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array(Int)
    case object(Int)

    /// The number this value stands for: numbers, and strings that spell a number (Endeca sends prices as strings).
    var numeric: Double? {
        switch self {
        case .number(let d): return d
        case .string(let s): return Double(s)
        default: return nil
        }
    }
}

extension Condition {
    /// Whether the condition holds in `context`. Missing fields make comparisons false (and `!=` true).
    public func evaluate(_ context: ConditionContext) -> Bool {
        Self.truth(expression, context)
    }

    static func truth(_ e: ConditionExpression, _ c: ConditionContext) -> Bool {
        switch e {
        case .literal(.bool(let b)): return b
        case .literal, .field, .variable: return false  // rejected by the parser; never reached
        case .exists(let path):
            return path.resolve(in: c.document, from: c.model) != nil
        case .and(let parts): return parts.allSatisfy { truth($0, c) }
        case .or(let parts): return parts.contains { truth($0, c) }
        case .not(let inner): return !truth(inner, c)
        case .compare(let op, let l, let r):
            if op == .equal || op == .notEqual, let same = asciiEquality(l, r, c) ?? asciiEquality(r, l, c) {
                return op == .equal ? same : !same
            }
            let a = value(l, c), b = value(r, c)
            switch op {
            case .equal: return equal(a, b)
            case .notEqual: return !equal(a, b)
            case .less: return order(a, b).map { $0 < 0 } ?? false
            case .lessOrEqual: return order(a, b).map { $0 <= 0 } ?? false
            case .greater: return order(a, b).map { $0 > 0 } ?? false
            case .greaterOrEqual: return order(a, b).map { $0 >= 0 } ?? false
            }
        case .member(let l, let list):
            let a = value(l, c)
            return list.contains { equal(a, literalValue($0)) }
        case .test(let test, let l, let r):
            let a = value(l, c), b = value(r, c)
            if test == .contains, case .array(let node) = a {
                return c.document.elements(node).contains { equal(nodeValue($0, c.document), b) }
            }
            guard case .string(let x) = a, case .string(let y) = b else { return false }
            switch test {
            case .startsWith: return x.utf8.starts(with: y.utf8)
            case .endsWith: return x.utf8.reversed().starts(with: y.utf8.reversed())
            case .contains:
                return y.isEmpty || x.utf8.count >= y.utf8.count && containsBytes(Array(x.utf8), Array(y.utf8))
            }
        }
    }

    /// `field == "literal"` answered on the response's bytes, without making strings: nil unless `field` is a field
    /// path and `literal` a string literal and both values are ASCII (where byte equality is String equality).
    static func asciiEquality(_ field: ConditionExpression, _ literal: ConditionExpression, _ c: ConditionContext)
        -> Bool?
    {
        guard case .field(let path) = field, case .literal(.string(var text)) = literal else { return nil }
        let doc = c.document
        guard let node = path.resolve(in: doc, from: c.model) else { return false }
        let n = doc.nodes[node]
        guard n.kind == .string, n.flags & JSONNode.Flags.escaped == 0 else { return nil }
        return text.withUTF8 { lit -> Bool? in
            guard !lit.contains(where: { $0 >= 0x80 }) else { return nil }
            return doc.bytes.withUnsafeBufferPointer { b -> Bool? in
                let body = UnsafeBufferPointer(rebasing: b[Int(n.start) + 1..<Int(n.end) - 1])
                guard !body.contains(where: { $0 >= 0x80 }) else { return nil }
                return body.count == lit.count
                    && (lit.isEmpty || memcmpEqual(body.baseAddress!, lit.baseAddress!, lit.count))
            }
        }
    }

    static func containsBytes(_ h: [UInt8], _ n: [UInt8]) -> Bool {
        guard n.count <= h.count else { return false }
        for start in 0...(h.count - n.count) where h[start] == n[0] && Array(h[start..<start + n.count]) == n {
            return true
        }
        return false
    }

    static func literalValue(_ l: ConditionLiteral) -> ConditionValue {
        switch l {
        case .string(let s): return .string(s)
        case .number(let d): return .number(d)
        case .bool(let b): return .bool(b)
        case .null: return .null
        }
    }

    static func nodeValue(_ node: Int, _ doc: JSONDocument) -> ConditionValue {
        switch doc.kind(node) {
        case .string: return .string(doc.string(node) ?? "")
        case .number: return doc.double(node).map(ConditionValue.number) ?? .missing
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .null: return .null
        case .array: return .array(node)
        case .object: return .object(node)
        }
    }

    static func value(_ e: ConditionExpression, _ c: ConditionContext) -> ConditionValue {
        switch e {
        case .literal(let l): return literalValue(l)
        case .field(let path):
            guard let node = path.resolve(in: c.document, from: c.model) else { return .missing }
            return nodeValue(node, c.document)
        case .variable(.row): return .number(Double(c.row))
        case .variable(.section): return .number(Double(c.section))
        case .variable(.sectionType): return .string(c.sectionType)
        default: return .bool(truth(e, c))
        }
    }

    static func equal(_ a: ConditionValue, _ b: ConditionValue) -> Bool {
        switch (a, b) {
        case (.missing, _), (_, .missing): return false
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number, _), (_, .number):
            guard let x = a.numeric, let y = b.numeric else { return false }
            return x == y
        default: return false
        }
    }

    static func order(_ a: ConditionValue, _ b: ConditionValue) -> Int? {
        if case .string(let x) = a, case .string(let y) = b {
            if x == y { return 0 }
            return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) ? -1 : 1
        }
        guard let x = a.numeric, let y = b.numeric else { return nil }
        return x < y ? -1 : (x > y ? 1 : 0)
    }
}
