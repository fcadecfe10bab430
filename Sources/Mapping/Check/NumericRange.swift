/// The numbers one subject of a conjunction can be, as its comparisons with number literals (`<`, `<=`, `>`, `>=`,
/// `==`) bound it: an empty range is a condition that never holds (`price < 5 and price >= 5`).
struct NumericRange: Sendable, Equatable {
    /// A bound and whether the bound itself is in the range.
    struct Bound: Sendable, Equatable {
        var value: Double
        var inclusive: Bool
    }

    var low: Bound?
    var high: Bound?

    /// Narrows the range to the numbers `n` for which `subject op n` holds.
    mutating func constrain(_ op: ComparisonOperator, _ n: Double) {
        switch op {
        case .less: raise(high: Bound(value: n, inclusive: false))
        case .lessOrEqual: raise(high: Bound(value: n, inclusive: true))
        case .greater: raise(low: Bound(value: n, inclusive: false))
        case .greaterOrEqual: raise(low: Bound(value: n, inclusive: true))
        case .equal:
            raise(low: Bound(value: n, inclusive: true))
            raise(high: Bound(value: n, inclusive: true))
        case .notEqual: break
        }
    }

    /// Whether no number is in the range.
    var isEmpty: Bool {
        guard let low, let high else { return false }
        return low.value > high.value || (low.value == high.value && !(low.inclusive && high.inclusive))
    }

    private mutating func raise(low new: Bound) {
        guard let old = low else { return low = new }
        if new.value > old.value || (new.value == old.value && !new.inclusive) { low = new }
    }

    private mutating func raise(high new: Bound) {
        guard let old = high else { return high = new }
        if new.value < old.value || (new.value == old.value && !new.inclusive) { high = new }
    }

    /// `op` with its sides swapped (`5 > x` is `x < 5`).
    static func flipped(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        case .equal, .notEqual: op
        }
    }

    /// Each subject's range in the conjunction `parts` (already flattened), from its comparisons with numbers.
    static func ranges(in parts: [ConditionExpression]) -> [String: NumericRange] {
        var out: [String: NumericRange] = [:]
        for part in parts {
            switch part {
            case .compare(let op, let s, .literal(.number(let n))) where !s.isLiteral:
                out[s.canonical, default: NumericRange()].constrain(op, n)
            case .compare(let op, .literal(.number(let n)), let s) where !s.isLiteral:
                out[s.canonical, default: NumericRange()].constrain(flipped(op), n)
            default: continue
            }
        }
        return out
    }
}
