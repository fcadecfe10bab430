import LayoutJSON

/// A value a subject can take in a candidate model.
enum CandidateValue: Equatable {
    case missing
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([CandidateValue])
    case object

    init(_ literal: ConditionLiteral) {
        switch literal {
        case .string(let s): self = .string(s)
        case .number(let d): self = .number(d)
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        }
    }

    var node: ModelNode {
        switch self {
        case .missing, .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(\.node))
        case .object: return .object([])
        }
    }
}

/// A candidate model, parsed, with its position.
struct CandidateModel {
    let document: JSONDocument
    let text: String
    let row: Int
    let section: Int
    let sectionType: String

    var context: ConditionContext {
        ConditionContext(document: document, model: document.root, row: row, section: section, sectionType: sectionType)
    }

    func described(variables: Set<ConditionVariable>) -> ConditionOverlap.Witness {
        ConditionOverlap.Witness(
            model: text, row: row, section: section, sectionType: sectionType, variables: variables)
    }
}

/// A JSON value under construction.
indirect enum ModelNode {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ModelNode])
    case object([(String, ModelNode)])

    /// Sets `value` at `steps`, making objects and arrays on the way; false when a step meets a scalar.
    mutating func set(_ value: ModelNode, at steps: ArraySlice<FieldPath.Step>) -> Bool {
        guard let step = steps.first else {
            self = value
            return true
        }
        switch (step, self) {
        case (.key(let key), .object(var members)):
            let name = key.description
            var child =
                members.first { $0.0 == name }?.1 ?? (steps.count > 1 ? Self.container(for: steps.dropFirst()) : .null)
            guard child.set(value, at: steps.dropFirst()) else { return false }
            if let i = members.firstIndex(where: { $0.0 == name }) {
                members[i].1 = child
            } else {
                members.append((name, child))
            }
            self = .object(members)
            return true
        case (.index(let n), .array(var items)):
            guard n >= 0, n < 64 else { return false }
            while items.count <= n { items.append(.null) }
            var child = items[n]
            if case .null = child, steps.count > 1 { child = Self.container(for: steps.dropFirst()) }
            guard child.set(value, at: steps.dropFirst()) else { return false }
            items[n] = child
            self = .array(items)
            return true
        case (_, .null):
            self = Self.container(for: steps)
            return set(value, at: steps)
        default:
            return false
        }
    }

    /// The container the first of `steps` goes into.
    static func container(for steps: ArraySlice<FieldPath.Step>) -> ModelNode {
        if case .index = steps.first { return .array([]) }
        return .object([])
    }

    func write(_ w: inout JSONWriter) {
        switch self {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .number(let d):
            if d == d.rounded(), abs(d) < 1e15 { w.int(Int(d)) } else { w.double(d) }
        case .string(let s): w.string(s)
        case .array(let items):
            w.beginArray()
            for item in items { item.write(&w) }
            w.endArray()
        case .object(let members):
            w.beginObject()
            for (k, v) in members {
                w.key(text: k)
                v.write(&w)
            }
            w.endObject()
        }
    }
}
