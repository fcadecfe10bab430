import Adaptors
import ContentTree
import LayoutJSON
import Yams

/// The values a config is made of, each read with its location and checked: fields of a mapping, strings, booleans,
/// lists, conditions and field paths.
extension MappingConfigReader {
    /// The key/value pairs of a mapping node; unknown keys are errors.
    mutating func fields(_ node: Node, allowed: [String], what: String) -> [(key: String, keyNode: Node, value: Node)]?
    {
        guard case .mapping(let mapping) = node else {
            fail(node, .wrongType, "\(what) must be a mapping")
            return nil
        }
        var out: [(String, Node, Node)] = []
        for (k, v) in mapping {
            guard let key = k.string else {
                fail(k, .wrongType, "keys in \(what) must be strings")
                continue
            }
            if !allowed.contains(key) {
                fail(
                    k, .unknownField,
                    "unknown field '\(key)' in \(what)\(Suggestion.clause(for: key, among: allowed)) (allowed: \(allowed.joined(separator: ", ")))"
                )
                continue
            }
            out.append((key, k, v))
        }
        return out
    }

    mutating func string(_ node: Node, what: String) -> String? {
        guard case .scalar(let s) = node, !s.string.isEmpty else {
            fail(node, .wrongType, "\(what) must be a non-empty string")
            return nil
        }
        return s.string
    }

    /// A plain scalar YAML 1.1 reads as a boolean (`true`, `yes`, `on`, `false`, `no`, `off`, any case).
    mutating func bool(_ node: Node, what: String) -> Bool? {
        guard case .scalar(let s) = node, s.style == .plain || s.style == .any,
            let b = Self.booleans[s.string.lowercased()]
        else {
            fail(node, .wrongType, "\(what) must be true or false")
            return nil
        }
        return b
    }

    mutating func strings(_ node: Node, what: String) -> [String]? {
        switch node {
        case .scalar: return string(node, what: what).map { [$0] }
        case .sequence(let seq):
            var out: [String] = []
            for item in seq {
                guard let s = string(item, what: "each of \(what)") else { return nil }
                out.append(s)
            }
            if out.isEmpty { fail(node, .wrongType, "\(what) must name at least one type") }
            return out
        default:
            fail(node, .wrongType, "\(what) must be a string or a list of strings")
            return nil
        }
    }

    mutating func condition(_ node: Node) -> Condition? {
        guard let text = string(node, what: "when") else { return nil }
        do {
            return try Condition(text)
        } catch {
            let base = location(node) ?? SourceLocation(line: 1, column: 1)
            var quoted = 0
            if case .scalar(let s) = node, s.style == .singleQuoted || s.style == .doubleQuoted { quoted = 1 }
            let line = base.line + error.line - 1
            let column = error.line == 1 ? base.column + quoted + error.column - 1 : error.column
            errors.append(
                Diagnostic(
                    .error, .conditionSyntax, path: "\(origin):\(line):\(column)",
                    "in condition '\(text)': \(error.message)"))
            return nil
        }
    }

    mutating func fieldPath(_ node: Node, what: String) -> FieldPath? {
        guard let text = string(node, what: what) else { return nil }
        do {
            return try FieldPath(parsing: text)
        } catch {
            fail(node, .fieldPathSyntax, "\(what) '\(text)': \(error)")
            return nil
        }
    }
}
