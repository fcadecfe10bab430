import LayoutJSON

/// Decides whether two conditions can hold for the same model and position: `check`'s static proof that the mappings
/// competing for a type never make a row ambiguous.
///
/// Both conditions are put in disjunctive normal form (bounded); each conjunction is split by subject (a field path,
/// `row`, `section`, `sectionType`). For each subject a finite set of candidate values is made from the literals its
/// tests mention: for most families of tests (equality, `in`, `exists`, numeric comparison; positive string tests; a
/// value pinned to non-numeric literals) the candidates cover every class of values the tests can tell apart, so no
/// surviving candidate proves the conjunction unsatisfiable. Candidate models are checked with the evaluator the
/// compiler uses, so a witness always satisfies both conditions. Anything else is undecided, never assumed disjoint.
public struct ConditionOverlap: Sendable {
    /// What the check found.
    public enum Verdict: Sendable, Equatable {
        /// No model and position satisfies both.
        case disjoint
        /// This model and position satisfies both.
        case overlap(Witness)
        /// Neither proved within the bounds; the reason says what stopped it.
        case undecided(String)
    }

    /// A model (as JSON text) and position for which both conditions hold.
    public struct Witness: Sendable, Equatable, CustomStringConvertible {
        public let model: String
        public let row: Int
        public let section: Int
        public let sectionType: String
        /// The position variables the conditions mention (the description shows only those).
        let variables: Set<ConditionVariable>

        public var description: String {
            var text = model
            if variables.contains(.row) { text += " at row \(row)" }
            if variables.contains(.section) { text += (variables.contains(.row) ? "," : "") + " in section \(section)" }
            if variables.contains(.sectionType) { text += " with sectionType \"\(sectionType)\"" }
            return text
        }
    }

    /// Largest normal form tried, in conjunctions.
    public var maxConjunctions = 256
    /// Most candidate models tried per conjunction.
    public var maxModels = 4096

    public init() {}

    /// Whether some model satisfies both `a` and `b`.
    public func check(_ a: Condition, _ b: Condition) -> Verdict {
        let both = ConditionExpression.and([a.expression, b.expression])
        guard let conjunctions = Self.normalForm(both, positive: true, limit: maxConjunctions) else {
            return .undecided("the conditions expand to more than \(maxConjunctions) cases")
        }
        var undecided: String?
        for conjunction in conjunctions {
            switch solve(conjunction, a, b) {
            case .overlap(let w): return .overlap(w)
            case .undecided(let why): undecided = undecided ?? why
            case .disjoint: continue
            }
        }
        return undecided.map { .undecided($0) } ?? .disjoint
    }

    /// One test of a conjunction, as written or negated.
    struct Literal {
        let atom: ConditionExpression
        let positive: Bool
    }

    /// The conjunctions (lists of literals) whose disjunction is `e` (negated when `positive` is false); nil past
    /// `limit`.
    static func normalForm(_ e: ConditionExpression, positive: Bool, limit: Int) -> [[Literal]]? {
        switch e {
        case .literal(.bool(let b)): return b == positive ? [[]] : []
        case .not(let inner): return normalForm(inner, positive: !positive, limit: limit)
        case .and(let parts), .or(let parts):
            let isAnd: Bool
            if case .and = e { isAnd = positive } else { isAnd = !positive }
            var result: [[Literal]] = isAnd ? [[]] : []
            for part in parts {
                guard let forms = normalForm(part, positive: positive, limit: limit) else { return nil }
                if isAnd {
                    var product: [[Literal]] = []
                    for x in result {
                        for y in forms {
                            product.append(x + y)
                            if product.count > limit { return nil }
                        }
                    }
                    result = product
                } else {
                    result += forms
                    if result.count > limit { return nil }
                }
            }
            return result
        default:
            return [[Literal(atom: e, positive: positive)]]
        }
    }

    /// What a literal tests.
    enum Subject: Hashable {
        case field(FieldPath)
        case variable(ConditionVariable)
    }

    static func subject(_ e: ConditionExpression) -> Subject? {
        switch e {
        case .field(let p): return .field(p)
        case .variable(let v): return .variable(v)
        default: return nil
        }
    }

    /// The one subject `atom` tests against literals, or nil (no subject, or two).
    static func subject(of atom: ConditionExpression) -> (Subject, [ConditionLiteral])? {
        switch atom {
        case .exists(let p): return (.field(p), [])
        case .compare(_, let l, .literal(let x)): return subject(l).map { ($0, [x]) }
        case .compare(_, .literal(let x), let r): return subject(r).map { ($0, [x]) }
        case .member(let l, let list): return subject(l).map { ($0, list) }
        case .test(_, let l, .literal(let x)): return subject(l).map { ($0, [x]) }
        default: return nil
        }
    }

    private func solve(_ conjunction: [Literal], _ a: Condition, _ b: Condition) -> Verdict {
        // A test and its negation together never hold.
        var polarity: [String: Bool] = [:]
        for literal in conjunction {
            let key = literal.atom.canonical
            if let other = polarity[key], other != literal.positive { return .disjoint }
            polarity[key] = literal.positive
        }
        var bySubject: [Subject: [Literal]] = [:]
        var order: [Subject] = []
        var crossing = false
        var crossed: Set<Subject> = []
        var literalsSeen: [ConditionLiteral] = []
        for literal in conjunction {
            guard let (subject, values) = Self.subject(of: literal.atom) else {
                // Field against field, or literal against literal: only the candidate models can tell.
                crossing = true
                for s in Self.subjects(in: literal.atom) {
                    crossed.insert(s)
                    if bySubject[s] == nil {
                        bySubject[s] = []
                        order.append(s)
                    }
                }
                continue
            }
            literalsSeen += values
            if bySubject[subject] == nil { order.append(subject) }
            bySubject[subject, default: []].append(literal)
        }
        // Field paths one of which leads into the other are not independent.
        let fields = order.compactMap { s -> FieldPath? in if case .field(let p) = s { return p } else { return nil } }
        func entangled(_ p: FieldPath) -> Bool {
            fields.contains { q in q != p && (Self.isPrefix(q, of: p) || Self.isPrefix(p, of: q)) }
        }
        var survivors: [(Subject, [CandidateValue])] = []
        var undecided: String?
        for subject in order {
            let literals = bySubject[subject]!
            let family = CandidateFamily(
                subject: subject, literals: literals, related: crossed.contains(subject) ? literalsSeen : [])
            // Each candidate is made into a model once, and every literal of the subject is tested on it.
            let kept = family.candidates.filter { value in
                guard let w = Self.model([(subject, value)]) else { return false }
                let context = w.context
                return literals.allSatisfy { Condition.truth($0.atom, context) == $0.positive }
            }
            if kept.isEmpty {
                var independent = true
                if case .field(let p) = subject, entangled(p) { independent = false }
                if family.isComplete && independent { return .disjoint }
                undecided = undecided ?? "no value found for \(family.name), and its tests are beyond the proof"
                continue
            }
            survivors.append((subject, kept))
        }
        if let undecided { return .undecided(undecided) }
        if let overlap = witness(among: survivors, a, b) { return overlap }
        let fieldsTangle = fields.contains(where: entangled)
        return .undecided(
            crossing || fieldsTangle
                ? "the conditions relate fields to each other, which only examples can test"
                : "no model found within \(maxModels) tries")
    }

    /// Every subject can be satisfied on its own: one model (of at most `maxModels` combinations of the subjects'
    /// candidates) that satisfies both conditions as a whole, as an overlap; nil when none is found.
    private func witness(among survivors: [(Subject, [CandidateValue])], _ a: Condition, _ b: Condition) -> Verdict? {
        var tried = 0
        var choice = [Int](repeating: 0, count: survivors.count)
        while tried < maxModels {
            tried += 1
            let witness = Self.model(survivors.indices.map { (survivors[$0].0, survivors[$0].1[choice[$0]]) })
            if let w = witness, Self.evaluate(a, w), Self.evaluate(b, w) {
                return .overlap(
                    w.described(variables: Self.variables(in: a.expression).union(Self.variables(in: b.expression))))
            }
            // Next combination (odometer).
            var k = 0
            while k < choice.count {
                choice[k] += 1
                if choice[k] < survivors[k].1.count { break }
                choice[k] = 0
                k += 1
            }
            if k == choice.count { break }
        }
        return nil
    }

    static func isPrefix(_ p: FieldPath, of q: FieldPath) -> Bool {
        let a = p.steps, b = q.steps
        return a.count < b.count && Array(b.prefix(a.count)) == a
    }

    static func subjects(in e: ConditionExpression) -> [Subject] {
        switch e {
        case .field(let p), .exists(let p): return [.field(p)]
        case .variable(let v): return [.variable(v)]
        case .compare(_, let l, let r), .test(_, let l, let r): return subjects(in: l) + subjects(in: r)
        case .member(let l, _): return subjects(in: l)
        case .and(let parts), .or(let parts): return parts.flatMap(subjects(in:))
        case .not(let inner): return subjects(in: inner)
        case .literal: return []
        }
    }

    static func variables(in e: ConditionExpression) -> Set<ConditionVariable> {
        Set(
            subjects(in: e).compactMap { s -> ConditionVariable? in
                if case .variable(let v) = s { return v } else { return nil }
            })
    }

    static func evaluate(_ c: Condition, _ w: CandidateModel) -> Bool { c.evaluate(w.context) }

    /// A model with each subject set to its value; nil when the values cannot live together (a path through a
    /// value that is not an object or array).
    static func model(_ values: [(Subject, CandidateValue)]) -> CandidateModel? {
        var root = ModelNode.object([])
        var row = 0, section = 0, sectionType = "Type"
        for (subject, value) in values {
            switch subject {
            case .variable(.row): if case .number(let d) = value { row = Int(d) }
            case .variable(.section): if case .number(let d) = value { section = Int(d) }
            case .variable(.sectionType): if case .string(let s) = value { sectionType = s }
            case .field(let path):
                if case .missing = value { continue }
                guard root.set(value.node, at: path.steps[...]) else { return nil }
            }
        }
        var w = JSONWriter(capacity: 256)
        root.write(&w)
        let bytes = w.bytes
        guard let doc = try? JSONReader(maxDepth: 256).read(bytes) else { return nil }
        return CandidateModel(
            document: doc, text: String(decoding: bytes, as: UTF8.self), row: row, section: section,
            sectionType: sectionType)
    }
}
