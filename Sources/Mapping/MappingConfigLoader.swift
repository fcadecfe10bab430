import Adaptors
public import ContentTree
import LayoutJSON
import Yams

/// Reads a mapping config from YAML, reporting every problem with its line and column.
public struct MappingConfigLoader: Sendable {
    public init() {}

    /// The config in `yaml`, or every error found in it (syntax, unknown fields, wrong types, bad conditions).
    public func load(yaml: String, origin: String = "config") -> Result<MappingConfig, MappingConfigError> {
        var reader = MappingConfigReader(origin: origin)
        let root: Node?
        do {
            // Resolver.basic: the default one compiles seven regular expressions with ICU before the first
            // scalar (~1.3 ms, a tenth of `compile`'s start-up), for tags this reader does not look at; the
            // booleans it needs it reads itself (`bool(_:what:)`), as Yams would.
            root = try Yams.compose(yaml: yaml, Resolver.basic)
        } catch let error as YamlError {
            return .failure(MappingConfigError(diagnostics: [reader.yamlDiagnostic(error, text: yaml)]))
        } catch {
            return .failure(
                MappingConfigError(diagnostics: [Diagnostic(.error, .yamlSyntax, path: origin, "\(error)")]))
        }
        var config = MappingConfig()
        config.origin = origin
        guard let root else {
            return .failure(
                MappingConfigError(diagnostics: [
                    Diagnostic(
                        .error, .emptyConfig, path: origin,
                        "the config file holds no YAML document: it would map nothing (write at least one binding or mapping)"
                    )
                ]))
        }
        reader.readTop(root, into: &config)
        if reader.errors.isEmpty { return .success(config) }
        return .failure(MappingConfigError(diagnostics: reader.errors.sorted(by: Self.byLocation)))
    }

    /// Orders diagnostics by the line and column in their `origin:line:column` paths.
    static func byLocation(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        func key(_ d: Diagnostic) -> (Int, Int) {
            let parts = d.path.split(separator: ":")
            guard parts.count >= 2, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1])
            else { return (0, 0) }
            return (line, column)
        }
        return key(a) < key(b)
    }
}

/// All errors that made a config unusable.
public struct MappingConfigError: Error, Sendable, CustomStringConvertible {
    public let diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

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
