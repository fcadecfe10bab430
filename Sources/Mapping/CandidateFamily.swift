import LayoutJSON

/// The candidate values of one subject of a conjunction, made from the literals its tests mention, and whether they
/// cover every class of values those tests can tell apart (so that no surviving candidate proves no value exists).
struct CandidateFamily {
    let name: String
    let candidates: [CandidateValue]
    let isComplete: Bool

    /// What the literals of one subject say: the strings and numbers they mention, the strings the string tests
    /// look for, and which kinds of tests they make (which decides whether the candidates cover every class).
    private struct Survey {
        var strings: [String] = []
        var thresholds: [Double] = []
        var hasTests = false, allTestsPositive = true, hasStringOrder = false, onlyTestsAndExists = true
        var pins: [ConditionLiteral]?
        var prefixes: [String] = [], suffixes: [String] = [], infixes: [String] = []
        /// What `contains` looks for, of any type (an array contains numbers too).
        var sought: [ConditionLiteral] = []

        mutating func note(_ l: ConditionLiteral) {
            switch l {
            case .string(let s):
                if !strings.contains(s) { strings.append(s) }
                if let d = Double(s), d.isFinite { thresholds.append(d) }
            case .number(let d): if d.isFinite { thresholds.append(d) }
            case .bool, .null: break
            }
        }

        init(_ literals: [ConditionOverlap.Literal]) {
            for literal in literals {
                guard let (_, values) = ConditionOverlap.subject(of: literal.atom) else { continue }
                values.forEach { note($0) }
                switch literal.atom {
                case .test(let test, _, .literal(let x)):
                    hasTests = true
                    if !literal.positive { allTestsPositive = false }
                    if test == .contains, !sought.contains(x) { sought.append(x) }
                    if case .string(let s) = x {
                        switch test {
                        case .startsWith: prefixes.append(s)
                        case .endsWith: suffixes.append(s)
                        case .contains: infixes.append(s)
                        }
                    }
                case .compare(let op, _, _):
                    onlyTestsAndExists = false
                    if op != .equal && op != .notEqual,
                        values.contains(where: { if case .string = $0 { true } else { false } })
                    {
                        hasStringOrder = true
                    }
                    if op == .equal && literal.positive { pins = (pins ?? []) + values }
                case .member:
                    onlyTestsAndExists = false
                    if literal.positive { pins = (pins ?? []) + values }
                case .exists:
                    if !literal.positive { onlyTestsAndExists = false }
                default:
                    onlyTestsAndExists = false
                }
            }
        }

        /// Every pin (an `==` or `in` that must hold) is a non-numeric literal: only those values can match.
        var nonNumericPins: Bool {
            pins.map { list in
                list.allSatisfy {
                    if case .string(let s) = $0 { return Double(s) == nil }
                    if case .number = $0 { return false }
                    return true
                }
            } ?? false
        }

        /// Whether surviving no candidate proves no value exists.
        var isComplete: Bool {
            (!hasTests && !hasStringOrder) || nonNumericPins || (hasTests && allTestsPositive && onlyTestsAndExists)
        }
    }

    /// `related` are literals of other subjects this one is compared with (they only widen the candidates).
    init(subject: ConditionOverlap.Subject, literals: [ConditionOverlap.Literal], related: [ConditionLiteral] = []) {
        let survey = Survey(literals)
        // Compared with another subject: a few numbers past the other side's literals too.
        let nearby = related.flatMap { l -> [Double] in
            if case .number(let d) = l, d.isFinite { return [d, d + 1, d + 2] }
            return []
        }
        let numbers = Self.numbers(around: survey.thresholds + nearby)
        var values: [CandidateValue] = []
        func add(_ v: CandidateValue) { if !values.contains(v) { values.append(v) } }
        switch subject {
        case .variable(let v) where v == .row || v == .section:
            name = v.rawValue
            candidates = Self.positions(around: survey.thresholds).map { .number($0) }
            // Numbers never pass string tests; a string literal compares by its numeric value or not at all.
            isComplete = true
            return
        case .variable:
            name = "sectionType"
        case .field(let path):
            name = path.description
            // Numbers first: a witness reads best with the plainest value that works.
            for d in numbers { add(.number(d)) }
            if !survey.sought.isEmpty {
                add(.array(survey.sought.map(CandidateValue.init)))
                for c in survey.sought { add(.array([CandidateValue(c)])) }
            }
        }
        for v in Self.strings(from: survey) { add(v) }
        if case .field = subject {
            for v in [CandidateValue.null, .bool(true), .bool(false), .object, .array([]), .missing] { add(v) }
        }
        // A numeric string that is no literal, for every numeric class (Endeca sends prices as strings).
        for d in numbers { add(.string(Self.spelling(of: d, avoiding: survey.strings))) }
        candidates = values
        isComplete = survey.isComplete
    }

    /// Row and section positions: whole numbers from 0, one in every class between thresholds.
    private static func positions(around thresholds: [Double]) -> [Double] {
        var whole: [Double] = [0]
        for t in thresholds {
            for x in [t.rounded(.down) - 1, t.rounded(.down), t.rounded(.down) + 1, t.rounded(.up), t.rounded(.up) + 1]
            where x >= 0 && x < 1e9 {
                whole.append(x)
            }
        }
        var seen: Set<Double> = []
        return whole.sorted().filter { seen.insert($0).inserted }
    }

    /// String candidates: the literals; from the string tests the longest prefix, every infix and the longest
    /// suffix, and their joins; each literal extended and shortened; the empty string and a fresh one.
    private static func strings(from survey: Survey) -> [CandidateValue] {
        var out: [String] = survey.strings
        let p = survey.prefixes.max { $0.utf8.count < $1.utf8.count } ?? ""
        let s = survey.suffixes.max { $0.utf8.count < $1.utf8.count } ?? ""
        if survey.hasTests {
            out.append(p + survey.infixes.joined() + s)
            for x in survey.prefixes + [""] {
                for y in survey.suffixes + [""] {
                    out.append(x + y)
                    out.append(overlapped(x, y))
                    for c in survey.infixes { out.append(x + c + y) }
                    out.append(x + "~" + y)
                }
            }
        }
        for t in survey.strings {
            out.append(t + "~")
            out.append(String(t.dropLast()))
        }
        out.append("")
        out.append(fresh(avoiding: survey.strings))
        return out.map { .string($0) }
    }

    /// Numbers covering every class of the number line the thresholds cut: each threshold, a number strictly between
    /// each neighbouring pair (a whole one when there is one), and one beyond each end.
    static func numbers(around thresholds: [Double]) -> [Double] {
        let sorted = Array(Set(thresholds)).sorted()
        guard let low = sorted.first, let high = sorted.last else { return [0] }
        var out = [low.rounded(.down) - 1 < low ? low.rounded(.down) - 1 : low - 1]
        for (i, t) in sorted.enumerated() {
            out.append(t)
            if i + 1 < sorted.count {
                let next = sorted[i + 1]
                let whole = t.rounded(.down) + 1
                out.append(whole > t && whole < next ? whole : t + (next - t) / 2)
            }
        }
        out.append(high.rounded(.down) + 1 > high ? high.rounded(.down) + 1 : high + 1)
        return out.filter(\.isFinite)
    }

    /// `a` followed by `b`, sharing the longest end of `a` that starts `b`.
    static func overlapped(_ a: String, _ b: String) -> String {
        let x = Array(a.utf8), y = Array(b.utf8)
        var k = min(x.count, y.count)
        while k > 0 && Array(x.suffix(k)) != Array(y.prefix(k)) { k -= 1 }
        return String(decoding: x + y.dropFirst(k), as: UTF8.self)
    }

    /// A non-numeric string equal to none of `strings`.
    static func fresh(avoiding strings: [String]) -> String {
        var s = "other"
        while strings.contains(s) { s += "~" }
        return s
    }

    /// A spelling of `d` that Double reads back and that is none of `strings`.
    static func spelling(of d: Double, avoiding strings: [String]) -> String {
        let plain = d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
        for candidate in [plain, plain + ".0", plain + "e0", "0" + plain] where !strings.contains(candidate) {
            if Double(candidate) == d { return candidate }
        }
        var s = plain + "e0"
        while strings.contains(s) { s += "0" }
        return s
    }
}
