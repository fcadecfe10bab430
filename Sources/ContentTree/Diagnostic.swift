/// A finding about a response or a config: how bad, which rule, where, and why.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How bad a finding is; `error` findings reject a response under the strict policy.
    public enum Severity: String, Sendable, Comparable, CaseIterable {
        case info, warning, error

        public static func < (a: Severity, b: Severity) -> Bool {
            let order: [Severity] = [.info, .warning, .error]
            return order.firstIndex(of: a)! < order.firstIndex(of: b)!
        }
    }

    public var severity: Severity
    /// A stable, kebab-case rule name, e.g. `unmapped` or `ambiguous` (a `DiagnosticCode`'s raw value).
    public var code: String
    /// Tree path (or config location) the finding is about.
    public var path: String
    /// A one-line human explanation.
    public var message: String

    public init(_ severity: Severity, _ code: DiagnosticCode, path: String, _ message: String) {
        self.severity = severity
        self.code = code.rawValue
        self.path = path
        self.message = message
    }

    public var description: String { "\(severity.rawValue) [\(code)] \(path.isEmpty ? "$" : path): \(message)" }
}
