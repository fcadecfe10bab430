public import Adaptors

/// One row of a section as renderers see it.
public struct LayoutRow: Sendable, Equatable {
    public var id: String
    /// The renderer chosen; nil when the row is unmapped or ambiguous (a diagnostic says which).
    public var renderer: String?
    /// What the lower levels of the row's renderer chain give, in order, ending with the default renderer: a
    /// renderer (an app released before `renderer` existed) that lacks `renderer` draws the first it has.
    public var fallbacks: [String]
    /// Tape index of the model, copied byte-for-byte into the record.
    public var model: Int
    public var action: RowAction?
    /// The row's named events (selection and others the config declares), in the config's order.
    public var events: [RowEvent]

    public init(
        id: String, renderer: String?, fallbacks: [String] = [], model: Int, action: RowAction?, events: [RowEvent] = []
    ) {
        self.id = id
        self.renderer = renderer
        self.fallbacks = fallbacks
        self.model = model
        self.action = action
        self.events = events
    }
}
