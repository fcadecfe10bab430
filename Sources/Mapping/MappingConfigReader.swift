import Adaptors
import ContentTree
import LayoutJSON
import Yams

/// Reads a mapping config's YAML nodes, collecting every problem with its place (`errors`): the primitives
/// (fields, strings, conditions, field paths) and the top level; each list entry and adaptor binding reads itself
/// through it (`RendererMapping.read`, `AdaptorBinding.read`, …).
struct MappingConfigReader {
    static let booleans = ["true": true, "yes": true, "on": true, "false": false, "no": false, "off": false]
    let origin: String
    var errors: [Diagnostic] = []

    init(origin: String) { self.origin = origin }

    func location(_ node: Node) -> SourceLocation? {
        node.mark.map { SourceLocation(line: $0.line, column: $0.column) }
    }

    /// A `types` value: its names and where each stands (for findings at the name), or nil with what is wrong.
    mutating func types(_ node: Node) -> (names: [String], locations: [String: SourceLocation])? {
        guard let names = strings(node, what: "types") else { return nil }
        return (names, locations(ofStrings: node))
    }

    /// Where each string of a scalar or a list of scalars stands (a `types` value's names).
    func locations(ofStrings node: Node) -> [String: SourceLocation] {
        let items: [Node]
        switch node {
        case .scalar: items = [node]
        case .sequence(let seq): items = Array(seq)
        default: items = []
        }
        var out: [String: SourceLocation] = [:]
        for item in items {
            if let s = item.string, out[s] == nil, let l = location(item) { out[s] = l }
        }
        return out
    }

    func path(_ node: Node) -> String {
        guard let l = location(node) else { return origin }
        return "\(origin):\(l.line):\(l.column)"
    }

    mutating func fail(_ node: Node, _ code: DiagnosticCode, _ message: String) {
        errors.append(Diagnostic(.error, code, path: path(node), message))
    }

    /// The diagnostic for a YAML error in `text`, with what to do about it where the text says (`YAMLErrorHint`).
    func yamlDiagnostic(_ error: YamlError, text: String) -> Diagnostic {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return Diagnostic(
                .error, .yamlSyntax, path: "\(origin):\(mark.line):\(mark.column)",
                problem + YAMLErrorHint.syntax(problem, at: mark.line, in: text))
        case let .duplicatedKeysInMapping(duplicates, context):
            // Yams marks the first copy; the second, usually the one added last, is where to look.
            let (line, column) = (context.mark.line, context.mark.column)
            let keys = duplicates.sorted()
            let second = keys.lazy.compactMap {
                YAMLErrorHint.secondCopy(of: $0, after: line, column: column, in: text)
            }
            .first
            return Diagnostic(
                .error, .duplicateKey, path: "\(origin):\(second?.line ?? line):\(second?.column ?? column)",
                "key given more than once in one mapping: \(keys.joined(separator: ", ")) (first at line \(line)); keep one"
            )
        default:
            return Diagnostic(.error, .yamlSyntax, path: origin, "\(error)")
        }
    }

    mutating func readTop(_ root: Node, into config: inout MappingConfig) {
        let allowed = [
            "version", "policy", "defaultRenderer", "options", "adaptors", "renderers", "supplementary", "placeholders",
            "sectionIds", "events",
        ]
        guard let top = fields(root, allowed: allowed, what: "the config") else { return }
        for (key, _, value) in top {
            switch key {
            case "version":
                if value.int != 1 { fail(value, .unsupportedVersion, "version must be 1") }
            case "policy":
                if let s = string(value, what: "policy") {
                    if let p = Policy(rawValue: s) {
                        config.policy = p
                    } else {
                        let meant = Suggestion.clause(for: s, among: ["strict", "lenient"])
                        fail(value, .wrongValue, "policy must be strict or lenient, not '\(s)'\(meant)")
                    }
                }
            case "defaultRenderer":
                config.defaultRenderer = string(value, what: "defaultRenderer")
            case "options":
                readOptions(value, into: &config.options)
            case "adaptors":
                readAdaptors(value, into: &config)
            case "sectionIds":
                readSectionIds(value, into: &config)
            case "renderers":
                forEachEntry(value, what: "renderers") { reader, entry in
                    RendererMapping.read(entry, &reader).map { config.renderers.append($0) }
                }
            case "supplementary":
                forEachEntry(value, what: "supplementary") { reader, entry in
                    SupplementaryMapping.read(entry, &reader).map { config.supplementary.append($0) }
                }
            case "placeholders":
                forEachEntry(value, what: "placeholders") { reader, entry in
                    PlaceholderMapping.read(entry, &reader).map { config.placeholders.append($0) }
                }
            case "events":
                forEachEntry(value, what: "events") { reader, entry in
                    EventMapping.read(entry, &reader).map { config.events.append($0) }
                }
            default: break
            }
        }
    }

    mutating func forEachEntry(_ node: Node, what: String, _ body: (inout MappingConfigReader, Node) -> Void) {
        guard case .sequence(let seq) = node else {
            fail(node, .wrongType, "\(what) must be a list")
            return
        }
        for entry in seq { body(&self, entry) }
    }

    mutating func readOptions(_ node: Node, into options: inout CompileOptions) {
        guard
            let entries = fields(
                node,
                allowed: [
                    "omitContainers", "emptyMenusShowNoResults", "emptySlotsShowLoading", "builtInPlaceholders",
                    "maxDepth",
                ],
                what: "options")
        else { return }
        for (key, _, value) in entries {
            switch key {
            case "omitContainers": bool(value, what: key).map { options.omitContainers = $0 }
            case "emptyMenusShowNoResults": bool(value, what: key).map { options.emptyMenusShowNoResults = $0 }
            case "emptySlotsShowLoading": bool(value, what: key).map { options.emptySlotsShowLoading = $0 }
            case "builtInPlaceholders": bool(value, what: key).map { options.builtInPlaceholders = $0 }
            case "maxDepth":
                if let n = value.int, n >= 1, n <= 100_000 {
                    options.maxDepth = n
                } else {
                    fail(value, .wrongValue, "maxDepth must be an integer from 1 to 100000")
                }
            default: break
            }
        }
    }

    mutating func readAdaptors(_ node: Node, into config: inout MappingConfig) {
        guard case .mapping(let mapping) = node else {
            fail(node, .wrongType, "adaptors must be a mapping from content type to adaptor")
            return
        }
        for (k, v) in mapping {
            guard let type = string(k, what: "a content type") else { continue }
            if let binding = AdaptorBinding.read(v, for: type, &self) { config.adaptors[type] = binding }
        }
    }

    /// `sectionIds`: a content type (or `*`, every other type) to `editor`, `name`, `path` or `field:PATH`.
    mutating func readSectionIds(_ node: Node, into config: inout MappingConfig) {
        guard case .mapping(let mapping) = node else {
            fail(
                node, .wrongType,
                "sectionIds must be a mapping from content type (or *) to editor, name, path or field:PATH")
            return
        }
        for (k, v) in mapping {
            guard let type = string(k, what: "a content type"), let text = string(v, what: "the section ids of \(type)")
            else { continue }
            guard let identity = SectionIdentity(text: text) else {
                fail(v, .wrongValue, "section ids of \(type) must be editor, name, path or field:PATH, not '\(text)'")
                continue
            }
            if type == "*" { config.defaultSectionIdentity = identity } else { config.sectionIds[type] = identity }
        }
    }

    /// A string naming one of a fixed set of choices (`make` reads it); nil, with a finding, for anything else.
    mutating func readChoice<T>(_ value: Node, _ what: String, _ make: (String) -> T?, _ allowed: String)
        -> T?
    {
        guard let text = string(value, what: what) else { return nil }
        guard let choice = make(text) else {
            fail(value, .wrongValue, "\(what) must be \(allowed), not '\(text)'")
            return nil
        }
        return choice
    }

    /// A mapping from names to scalar values (an attribute name to a field path, or to a merge rule).
    mutating func namedValues(_ node: Node, what: String, of valueKind: String) -> [(String, Node)] {
        guard case .mapping(let mapping) = node else {
            fail(node, .wrongType, "\(what) must be a mapping from attribute name to \(valueKind)")
            return []
        }
        var out: [(String, Node)] = []
        for (k, v) in mapping {
            guard let name = string(k, what: "an attribute name") else { continue }
            out.append((name, v))
        }
        return out
    }
}
