public import Adaptors

/// One row of a section as renderers see it.
public struct LayoutRow: Sendable, Equatable {
    public var id: String
    /// The renderer chosen; nil when the row is unmapped or ambiguous (a diagnostic says which).
    public var renderer: String?
    /// Tape index of the model, copied byte-for-byte into the record.
    public var model: Int
    public var action: RowAction?

    public init(id: String, renderer: String?, model: Int, action: RowAction?) {
        self.id = id
        self.renderer = renderer
        self.model = model
        self.action = action
    }
}
