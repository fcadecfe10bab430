public import LayoutJSON

/// Registers a supplementary view (header, footer or any named kind) for sections of some types.
public struct SupplementaryMapping: Sendable {
    /// `header`, `footer` or another kind name.
    public var kind: String
    /// Section content types (or adaptor names) this view is for.
    public var types: [String]
    /// The item field whose value is the view's model (e.g. a menu's `displayName`).
    public var field: FieldPath
    public var renderer: String
    /// Evaluated against the content item; nil means always.
    public var condition: Condition?
    public var location: SourceLocation?
    /// Where each of `types` stands in the config file, for findings at the name.
    public var typeLocations: [String: SourceLocation] = [:]

    public init(
        kind: String, types: [String], field: FieldPath, renderer: String, condition: Condition? = nil,
        location: SourceLocation? = nil
    ) {
        self.kind = kind
        self.types = types
        self.field = field
        self.renderer = renderer
        self.condition = condition
        self.location = location
    }
}
