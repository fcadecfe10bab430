public import LayoutJSON

/// What a row does on a named event (`onSelect`, `onAppear`, …), for row models of some types: DTCollectionViewManager's
/// per-mapping `didSelect`, resolved along the renderers' fallback chain like Instant Cocoa's `didSelect<ModelName>:`.
public struct EventMapping: Sendable {
    /// One value the event passes: a name and the model field it is read from.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var path: FieldPath

        public init(name: String, path: FieldPath) {
            self.name = name
            self.path = path
        }
    }

    /// The event's name as renderers know it, e.g. `onSelect`.
    public var event: String
    /// Row model types, section types or adaptor names (the renderer chain's levels); empty means every row (the
    /// chain's last step).
    public var types: [String]
    /// Evaluated against the row's model, like a renderer mapping's; nil means always.
    public var condition: Condition?
    /// The name of the client's handler to call, if the event names one.
    public var handler: String?
    /// Whether the event passes the row's action (the one the adaptor derived).
    public var passesAction: Bool
    /// The model fields the event passes, by name.
    public var fields: [Field]
    public var location: SourceLocation?
    /// Where each of `types` stands in the config file, for findings at the name.
    public var typeLocations: [String: SourceLocation] = [:]

    public init(
        event: String, types: [String] = [], condition: Condition? = nil, handler: String? = nil,
        passesAction: Bool = false, fields: [Field] = [], location: SourceLocation? = nil
    ) {
        self.event = event
        self.types = types
        self.condition = condition
        self.handler = handler
        self.passesAction = passesAction
        self.fields = fields
        self.location = location
    }
}
