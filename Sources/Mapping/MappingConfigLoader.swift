import Adaptors
import ContentTree
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
