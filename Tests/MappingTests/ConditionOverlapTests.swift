import LayoutJSON
import Mapping
import TestSupport
import Testing

/// Whether `condition` holds for a witness.
private func holds(_ condition: Condition, _ w: ConditionOverlap.Witness) throws -> Bool {
    let doc = try JSONReader().read(Array(w.model.utf8))
    return condition.evaluate(
        ConditionContext(document: doc, model: doc.root, row: w.row, section: w.section, sectionType: w.sectionType))
}

@Suite struct ConditionOverlapTests {
    let overlap = ConditionOverlap()

    /// The overlaps `check` used to pass: each gets a witness that satisfies both conditions.
    @Test(arguments: [
        ("price > 5", "price < 10", #"{"price":6}"#),
        (#"label startsWith "A""#, #"label == "Apple""#, #"{"label":"Apple"}"#),
        (#"x in ["a","b"]"#, #"x == "b""#, #"{"x":"b"}"#),
        ("exists a", "a == 1", #"{"a":1}"#),
        ("true", "row == 0", "{}"),
        (
            #"attributes["product.brand"][0] == "Natura""#, #"attributes["product.brand"][0] endsWith "ura""#,
            #"{"attributes":{"product.brand":["Natura"]}}"#
        ),
        (#"tags contains "sale" and price < 3"#, #"tags contains "new""#, #"{"tags":["sale","new"],"price":2}"#),
    ])
    func overlapsComeWithAWitness(_ a: String, _ b: String, _ expected: String) throws {
        let x = try Condition(a), y = try Condition(b)
        guard case .overlap(let w) = overlap.check(x, y) else {
            Issue.record("\(a) / \(b): \(overlap.check(x, y))")
            return
        }
        #expect(try holds(x, w) && holds(y, w))
        #expect(w.model == expected)
    }

    @Test(arguments: [
        ("price < 5", "price >= 5"),
        (#"label startsWith "A""#, #"label startsWith "B""#),
        (#"label endsWith "le""#, #"label endsWith "la""#),
        (#"x == "a""#, #"x == "b""#),
        ("exists a", "not exists a"),
        (#"kind == "x""#, #"kind != "x""#),
        ("row == 0", "row > 0"),
        (#"x in ["a","b"]"#, #"x in ["c"]"#),
        (#"tags contains "sale""#, #"not (tags contains "sale")"#),
        ("price > 10 or price < 0", "price >= 0 and price <= 10"),
        (#"x == "a" and y > 1"#, #"y <= 1 or x != "a""#),
        (#"label == "Apple""#, #"label startsWith "B""#),
        ("section < 2", "section >= 2"),
    ])
    func disjointPairsAreNeverFlagged(_ a: String, _ b: String) throws {
        #expect(overlap.check(try Condition(a), try Condition(b)) == .disjoint, "\(a) / \(b)")
    }

    @Test func whatCannotBeProvenIsUndecided() throws {
        // Disjoint, but only reasoning about two fields together would show it.
        let verdict = overlap.check(try Condition("price < listPrice"), try Condition("price >= listPrice"))
        guard case .undecided = verdict else {
            Issue.record("\(verdict)")
            return
        }
        // Numeric prefixes of numeric strings: beyond the proof, so not called disjoint.
        let strings = overlap.check(try Condition(#"code startsWith "0""#), try Condition("code == 7"))
        #expect(strings != .disjoint)
    }

    @Test func normalFormsPastTheBoundAreUndecided() throws {
        let wide = (0..<10).map { "(a\($0) == 1 or b\($0) == 1)" }.joined(separator: " and ")
        var bounded = ConditionOverlap()
        bounded.maxConjunctions = 64
        let verdict = bounded.check(try Condition(wide), try Condition("c == 1"))
        guard case .undecided(let why) = verdict else {
            Issue.record("\(verdict)")
            return
        }
        #expect(why.contains("more than 64"))
    }

    /// For random pairs: "disjoint" means no model in a wide pool satisfies both; a witness satisfies both.
    @Test func randomPairsAreJudgedSoundly() throws {
        var g = SeededRandom(seed: 0x0E71_A9)
        let pool = ModelPool()
        var counts = (disjoint: 0, overlap: 0, undecided: 0)
        for _ in 0..<400 {
            let a = try Condition(RandomCondition.make(&g, depth: 2))
            let b = try Condition(RandomCondition.make(&g, depth: 2))
            switch overlap.check(a, b) {
            case .overlap(let w):
                counts.overlap += 1
                #expect(try holds(a, w) && holds(b, w), "\(a) / \(b): \(w)")
            case .disjoint:
                counts.disjoint += 1
                if let model = pool.first(where: { a.evaluate($0) && b.evaluate($0) }) {
                    Issue.record("'\(a)' / '\(b)' called disjoint, but both hold for \(model)")
                }
            case .undecided:
                counts.undecided += 1
            }
        }
        // The generator makes every kind of verdict, and undecided stays the exception.
        #expect(counts.disjoint > 40 && counts.overlap > 40, "\(counts)")
        #expect(counts.undecided < 60, "\(counts)")
    }
}

/// Random conditions over two fields, `row` and the whole condition language.
enum RandomCondition {
    static let fields = ["a", "b"]
    static let literals = ["0", "1", "2.5", "3", #""a""#, #""ab""#, #""b""#, #""1""#, "null"]
    static let strings = [#""a""#, #""ab""#, #""b""#, #""1""#]

    static func make(_ g: inout SeededRandom, depth: Int) -> String {
        if depth > 0, Int.random(in: 0..<3, using: &g) == 0 {
            let l = make(&g, depth: depth - 1), r = make(&g, depth: depth - 1)
            switch Int.random(in: 0..<3, using: &g) {
            case 0: return "(\(l) and \(r))"
            case 1: return "(\(l) or \(r))"
            default: return "not (\(l))"
            }
        }
        let subject = Int.random(in: 0..<8, using: &g) == 0 ? "row" : fields.randomElement(using: &g)!
        switch Int.random(in: 0..<6, using: &g) {
        case 0 where subject != "row": return "exists \(subject)"
        case 1:
            let op = ["==", "!=", "<", "<=", ">", ">="].randomElement(using: &g)!
            return "\(subject) \(op) \(literals.randomElement(using: &g)!)"
        case 2:
            let list = (0..<Int.random(in: 1...3, using: &g)).map { _ in literals.randomElement(using: &g)! }
            return "\(subject) in [\(list.joined(separator: ","))]"
        case 3:
            let test = ["startsWith", "endsWith", "contains"].randomElement(using: &g)!
            return "\(subject) \(test) \(strings.randomElement(using: &g)!)"
        default:
            return "\(subject) == \(literals.randomElement(using: &g)!)"
        }
    }
}

/// Models for `a` and `b` from a wide pool of values (each kind, numbers around the literals, numeric strings,
/// prefixes and arrays), at rows 0 to 3.
struct ModelPool {
    let contexts: [ConditionContext]

    init() {
        let values = [
            nil, "null", "true", "false", "-1", "0", "0.5", "1", "2", "2.5", "3", "4", #""""#, #""a""#, #""ab""#,
            #""abc""#, #""b""#, #""ba""#, #""bab""#, #""1""#, #""01""#, #""2.5""#, #""3""#, #""x""#, #"["a"]"#,
            #"["a","b"]"#, "[1]", "{}",
        ]
        var contexts: [ConditionContext] = []
        for a in values {
            for b in values {
                let members = [a.map { #""a":\#($0)"# }, b.map { #""b":\#($0)"# }].compactMap { $0 }
                let doc = try! JSONReader().read(Array("{\(members.joined(separator: ","))}".utf8))
                for row in 0..<4 {
                    contexts.append(
                        ConditionContext(document: doc, model: doc.root, row: row, section: 0, sectionType: "T"))
                }
            }
        }
        self.contexts = contexts
    }

    func first(where match: (ConditionContext) -> Bool) -> String? {
        contexts.first(where: match).map { "\(String(decoding: $0.document.bytes, as: UTF8.self)) at row \($0.row)" }
    }
}
