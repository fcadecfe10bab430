/// Registers a renderer for row models of some types, optionally under a condition.
public struct RendererMapping: Sendable {
    /// The renderer (cell) name written into rows.
    public var renderer: String
    /// Model types this mapping serves (a family when more than one).
    public var types: [String]
    /// When the mapping applies; nil means always.
    public var condition: Condition?
    /// Where the mapping is written in the config.
    public var location: SourceLocation?
    /// Where each of `types` is written, when loaded from a file (a finding about one points at it).
    public var typeLocations: [String: SourceLocation] = [:]
    /// Where the condition (`when`) is written, when loaded from a file.
    public var conditionLocation: SourceLocation?

    public init(renderer: String, types: [String], condition: Condition? = nil, location: SourceLocation? = nil) {
        self.renderer = renderer
        self.types = types
        self.condition = condition
        self.location = location
    }
}
