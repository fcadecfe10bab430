public import Adaptors

/// One row of a section as renderers see it.
public struct LayoutRow: Sendable, Equatable {
    public var id: String
    /// The renderer chosen; nil when the row is unmapped or ambiguous (a diagnostic says which).
    public var renderer: String?
    /// Tape index of the model, copied byte-for-byte into the record.
    public var model: Int
    public var action: RowAction?
    /// The row's named events (selection and others the config declares), in the config's order.
    public var events: [RowEvent]

    public init(id: String, renderer: String?, model: Int, action: RowAction?, events: [RowEvent] = []) {
        self.id = id
        self.renderer = renderer
        self.model = model
        self.action = action
        self.events = events
    }
}
