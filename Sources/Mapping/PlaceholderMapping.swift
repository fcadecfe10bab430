public import Adaptors

/// Registers the renderer for a placeholder kind, for some section types or (with no types) for all.
public struct PlaceholderMapping: Sendable {
    public var kind: PlaceholderKind
    /// Section content types (or adaptor names); empty means every section.
    public var types: [String]
    public var renderer: String
    /// Evaluated against the content item; nil means always.
    public var condition: Condition?
    public var location: SourceLocation?
    /// Where each of `types` stands in the config file, for findings at the name.
    public var typeLocations: [String: SourceLocation] = [:]

    public init(
        kind: PlaceholderKind, types: [String] = [], renderer: String, condition: Condition? = nil,
        location: SourceLocation? = nil
    ) {
        self.kind = kind
        self.types = types
        self.renderer = renderer
        self.condition = condition
        self.location = location
    }
}
