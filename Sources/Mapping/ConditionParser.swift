import ContentTree
import LayoutJSON

/// Recursive-descent parser for conditions; nesting is bounded by `Condition.maxDepth`.
struct ConditionParser {
    private let s: [Unicode.Scalar]
    private var i = 0
    private var depth = 0
    private var nodes = 0

    init(_ source: String) { s = Array(source.unicodeScalars) }

    mutating func parse() throws(ConditionError) -> ConditionExpression {
        skipSpace()
        if i >= s.count { throw error("empty condition") }
        let e = try orExpression()
        skipSpace()
        if i < s.count { throw unexpected(afterValue: true) }
        guard e.isBoolean else {
            throw error("a condition must be a test (comparison, exists, in, and/or/not), not a bare value", at: 0)
        }
        return e
    }

    private func position(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for k in 0..<min(offset, s.count) {
            if s[k] == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    private func error(_ message: String, at offset: Int? = nil) -> ConditionError {
        let p = position(offset ?? i)
        return ConditionError(line: p.line, column: p.column, message: message)
    }

    private mutating func skipSpace() {
        while i < s.count, s[i] == " " || s[i] == "\t" || s[i] == "\n" || s[i] == "\r" { i += 1 }
    }

    private mutating func count() throws(ConditionError) {
        nodes += 1
        if nodes > Condition.maxNodes { throw error("condition too large (more than \(Condition.maxNodes) parts)") }
    }

    /// Reads a keyword if the next word is exactly `word`.
    private mutating func keyword(_ word: String) -> Bool {
        skipSpace()
        let w = Array(word.unicodeScalars)
        guard i + w.count <= s.count, Array(s[i..<i + w.count]) == w else { return false }
        if i + w.count < s.count, FieldPath.isIdentifierPart(s[i + w.count]) { return false }
        i += w.count
        return true
    }

    private mutating func symbol(_ text: String) -> Bool {
        skipSpace()
        let w = Array(text.unicodeScalars)
        guard i + w.count <= s.count, Array(s[i..<i + w.count]) == w else { return false }
        i += w.count
        return true
    }

    private mutating func nest() throws(ConditionError) {
        depth += 1
        if depth > Condition.maxDepth { throw error("condition nested deeper than \(Condition.maxDepth) levels") }
    }

    private mutating func orExpression() throws(ConditionError) -> ConditionExpression {
        try nest()
        defer { depth -= 1 }
        let start = i
        var parts = [try andExpression()]
        while keyword("or") {
            parts.append(try andExpression())
        }
        if parts.count == 1 { return parts[0] }
        for p in parts where !p.isBoolean { throw error("'or' needs tests on both sides", at: start) }
        try count()
        return .or(parts)
    }

    private mutating func andExpression() throws(ConditionError) -> ConditionExpression {
        let start = i
        var parts = [try notExpression()]
        while keyword("and") {
            parts.append(try notExpression())
        }
        if parts.count == 1 { return parts[0] }
        for p in parts where !p.isBoolean { throw error("'and' needs tests on both sides", at: start) }
        try count()
        return .and(parts)
    }

    private mutating func notExpression() throws(ConditionError) -> ConditionExpression {
        skipSpace()
        let start = i
        if keyword("not") {
            try nest()
            defer { depth -= 1 }
            let inner = try notExpression()
            guard inner.isBoolean else { throw error("'not' needs a test", at: start) }
            try count()
            return .not(inner)
        }
        return try comparison()
    }

    private mutating func comparison() throws(ConditionError) -> ConditionExpression {
        skipSpace()
        let start = i
        let left = try primary()
        skipSpace()
        let opStart = i
        for op in [ComparisonOperator.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater]
        where symbol(op.rawValue) {
            if op == .equal || op == .notEqual, i < s.count, s[i] == "=" {  // JavaScript's === and !==
                throw error("unexpected '\(op.rawValue)='; did you mean '\(op.rawValue)'?", at: opStart)
            }
            let right = try primary()
            if left.isBoolean || right.isBoolean, op != .equal && op != .notEqual {
                throw error("'\(op.rawValue)' compares values, not tests", at: opStart)
            }
            try count()
            return .compare(op, left, right)
        }
        if keyword("in") {
            guard !left.isBoolean else { throw error("'in' needs a value on its left", at: start) }
            guard symbol("[") else { throw error("expected '[' after 'in'") }
            var list: [ConditionLiteral] = []
            skipSpace()
            if !symbol("]") {
                repeat {
                    skipSpace()
                    let at = i
                    guard case .literal(let lit) = try primary() else {
                        throw error("'in' lists hold literals only", at: at)
                    }
                    list.append(lit)
                    if list.count > 1000 { throw error("'in' list longer than 1000 values") }
                } while symbol(",")
                guard symbol("]") else { throw error("expected ',' or ']' in 'in' list") }
            }
            try count()
            return .member(left, list)
        }
        for test in [StringTest.startsWith, .endsWith, .contains] where keyword(test.rawValue) {
            let right = try primary()
            guard !left.isBoolean, !right.isBoolean else {
                throw error("'\(test.rawValue)' needs values on both sides", at: opStart)
            }
            try count()
            return .test(test, left, right)
        }
        return left
    }

    private mutating func primary() throws(ConditionError) -> ConditionExpression {
        skipSpace()
        guard i < s.count else { throw error("unexpected end of condition") }
        try count()
        let c = s[i]
        if c == "(" {
            i += 1
            let inner = try orExpression()
            guard symbol(")") else {
                throw i < s.count ? unexpected(expecting: "')'", afterValue: true) : error("expected ')'")
            }
            return inner
        }
        if c == "\"" || c == "'" { return .literal(.string(try stringLiteral())) }
        if (c >= "0" && c <= "9") || c == "-" { return .literal(.number(try numberLiteral())) }
        if keyword("true") { return .literal(.bool(true)) }
        if keyword("false") { return .literal(.bool(false)) }
        if keyword("null") { return .literal(.null) }
        if keyword("exists") {
            skipSpace()
            let at = i
            let path = try fieldPath()
            guard !path.steps.isEmpty else { throw error("expected a field path after 'exists'", at: at) }
            return .exists(path)
        }
        for variable in ConditionVariable.allCases where keyword(variable.rawValue) {
            return .variable(variable)
        }
        for word in ["and", "or", "not", "in", "startsWith", "endsWith", "contains"] where keyword(word) {
            throw error("'\(word)' cannot start a value", at: i - word.unicodeScalars.count)
        }
        if FieldPath.isIdentifierStart(c) || c == "[" { return .field(try fieldPath()) }
        throw unexpected()
    }

    /// The words a condition is made of, for suggestions.
    static let keywords = [
        "and", "or", "not", "in", "exists", "startsWith", "endsWith", "contains", "true", "false", "null",
    ]
    /// What people write for an operator in other languages, and the one meant.
    static let foreignSymbols: [(written: String, meant: String)] = [
        ("&&", "and"), ("||", "or"), ("=<", "<="), ("=>", ">="), ("<>", "!="),
        ("=", "=="),
    ]

    /// The error for what stands at `i`: the word or symbol, and the keyword or operator probably meant (`!` means
    /// `!=` after a value, `not` before one).
    private func unexpected(expecting: String? = nil, afterValue: Bool = false) -> ConditionError {
        let want = expecting.map { " (expected \($0))" } ?? ""
        if FieldPath.isIdentifierStart(s[i]) {
            var end = i
            while end < s.count, FieldPath.isIdentifierPart(s[end]) { end += 1 }
            let word = String(String.UnicodeScalarView(s[i..<end]))
            return error("unexpected '\(word)'\(want)\(Suggestion.clause(for: word, among: Self.keywords))")
        }
        for (written, meant) in Self.foreignSymbols + [("!", afterValue ? "!=" : "not")] {
            let w = Array(written.unicodeScalars)
            if i + w.count <= s.count, Array(s[i..<i + w.count]) == w {
                return error("unexpected '\(written)'\(want); did you mean '\(meant)'?")
            }
        }
        return error("unexpected '\(s[i])'\(want)")
    }

    private mutating func fieldPath() throws(ConditionError) -> FieldPath {
        let start = i
        let steps: [FieldPath.Step]
        do {
            steps = try FieldPath.parseSteps(s, &i)
        } catch {
            throw self.error(error.message, at: error.column)
        }
        if steps.isEmpty { throw self.error("expected a field path", at: start) }
        return FieldPath(steps)
    }

    private mutating func stringLiteral() throws(ConditionError) -> String {
        let quote = s[i]
        let start = i
        i += 1
        var out = String.UnicodeScalarView()
        while i < s.count && s[i] != quote {
            if s[i] == "\\" {
                i += 1
                guard i < s.count else { break }
                switch s[i] {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(s[i])
                }
            } else {
                out.append(s[i])
            }
            i += 1
        }
        guard i < s.count else { throw error("unterminated string", at: start) }
        i += 1
        return String(out)
    }

    private mutating func numberLiteral() throws(ConditionError) -> Double {
        let start = i
        if s[i] == "-" { i += 1 }
        while i < s.count,
            (s[i] >= "0" && s[i] <= "9") || s[i] == "." || s[i] == "e" || s[i] == "E"
                || ((s[i] == "+" || s[i] == "-") && (s[i - 1] == "e" || s[i - 1] == "E"))
        {
            i += 1
        }
        let text = String(String.UnicodeScalarView(s[start..<i]))
        guard let value = Double(text), value.isFinite else { throw error("invalid number '\(text)'", at: start) }
        return value
    }
}
