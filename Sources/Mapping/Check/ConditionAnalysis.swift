import LayoutJSON

extension ConditionExpression {
    /// A canonical text: `and`/`or` flattened and sorted, comparisons oriented, so equivalent spellings match.
    var canonical: String {
        switch self {
        case .literal(let l): return Self.text(l)
        case .field(let p): return "$." + p.description
        case .variable(let v): return "@" + v.rawValue
        case .exists(let p): return "exists($.\(p.description))"
        case .not(let inner): return "not(\(inner.canonical))"
        case .and(let parts):
            return "and(" + flatten(parts, and: true).map(\.canonical).sorted().joined(separator: ",") + ")"
        case .or(let parts):
            return "or(" + flatten(parts, and: false).map(\.canonical).sorted().joined(separator: ",") + ")"
        case .member(let l, let list):
            return "in(\(l.canonical),[" + Set(list.map(Self.text)).sorted().joined(separator: ",") + "])"
        case .test(let t, let l, let r): return "\(t.rawValue)(\(l.canonical),\(r.canonical))"
        case .compare(let op, let l, let r):
            let (a, b) = (l.canonical, r.canonical)
            switch op {
            case .equal, .notEqual: return "\(op.rawValue)(" + [a, b].sorted().joined(separator: ",") + ")"
            case .less: return "<(\(a),\(b))"
            case .greater: return "<(\(b),\(a))"
            case .lessOrEqual: return "<=(\(a),\(b))"
            case .greaterOrEqual: return "<=(\(b),\(a))"
            }
        }
    }

    private func flatten(_ parts: [ConditionExpression], and: Bool) -> [ConditionExpression] {
        parts.flatMap { p -> [ConditionExpression] in
            switch (p, and) {
            case (.and(let inner), true): return flatten(inner, and: true)
            case (.or(let inner), false): return flatten(inner, and: false)
            default: return [p]
            }
        }
    }

    private static func text(_ l: ConditionLiteral) -> String {
        switch l {
        case .string(let s): return "\"" + s + "\""
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    /// Whether no model and position can make this expression true: constant false, or `x == a and x == b` with a ≠ b.
    var isUnsatisfiable: Bool {
        switch self {
        case .literal(.bool(false)): return true
        case .not(.literal(.bool(true))): return true
        case .or(let parts): return parts.allSatisfy(\.isUnsatisfiable)
        case .and(let parts):
            if parts.contains(where: \.isUnsatisfiable) { return true }
            // Collect equality pins: subject → literal. Two different pins on one subject cannot both hold.
            var pins: [String: ConditionLiteral] = [:]
            var exclusions: [String: Set<ConditionLiteral>] = [:]
            var allowed: [String: Set<ConditionLiteral>] = [:]
            for part in flatten(parts, and: true) {
                switch part {
                case .compare(.equal, let s, .literal(let l)) where !s.isLiteral,
                    .compare(.equal, .literal(let l), let s) where !s.isLiteral:
                    let key = s.canonical
                    if let old = pins[key], old != l, !(Self.numericallyEqual(old, l)) { return true }
                    pins[key] = l
                case .compare(.notEqual, let s, .literal(let l)) where !s.isLiteral,
                    .compare(.notEqual, .literal(let l), let s) where !s.isLiteral:
                    exclusions[s.canonical, default: []].insert(l)
                case .member(let s, let list):
                    let set = Set(list)
                    allowed[s.canonical] = allowed[s.canonical].map { $0.intersection(set) } ?? set
                default: continue
                }
            }
            for (key, pin) in pins {
                if exclusions[key]?.contains(pin) == true { return true }
                if let set = allowed[key], !set.contains(pin) { return true }
            }
            for (key, set) in allowed {
                if set.isEmpty { return true }
                if let ex = exclusions[key], set.isSubset(of: ex) { return true }
            }
            return NumericRange.ranges(in: flatten(parts, and: true)).values.contains(where: \.isEmpty)
        case .member(_, let list): return list.isEmpty
        case .compare(let op, .literal(let a), .literal(let b)):
            let equal = a == b || Self.numericallyEqual(a, b)
            switch op {
            case .equal: return !equal
            case .notEqual: return equal
            default: return false
            }
        default: return false
        }
    }

    var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }

    private static func numericallyEqual(_ a: ConditionLiteral, _ b: ConditionLiteral) -> Bool {
        func num(_ l: ConditionLiteral) -> Double? {
            switch l {
            case .number(let d): return d
            case .string(let s): return Double(s)
            default: return nil
            }
        }
        guard let x = num(a), let y = num(b) else { return false }
        return x == y
    }
}
