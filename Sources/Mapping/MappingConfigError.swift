public import ContentTree

/// All errors that made a config unusable.
public struct MappingConfigError: Error, Sendable, CustomStringConvertible {
    public let diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
