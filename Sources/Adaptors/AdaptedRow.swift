/// One row an adaptor produced: the model node, its stable id and its action.
public struct AdaptedRow: Sendable, Equatable {
    /// Tape index of the row's model value (copied byte-for-byte into the record).
    public var node: Int
    /// Stable id within the section: the model's own id where it has one, else its index.
    public var id: String
    /// What selecting the row does.
    public var action: RowAction?

    public init(node: Int, id: String, action: RowAction?) {
        self.node = node
        self.id = id
        self.action = action
    }
}
