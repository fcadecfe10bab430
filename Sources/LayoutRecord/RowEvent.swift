/// One named event of a row as renderers see it: the handler to call and what to pass it.
public struct RowEvent: Sendable, Equatable {
    /// The event's name, e.g. `onSelect`.
    public var name: String
    public var handler: String?
    /// Whether the event passes the row's action (written as `null` when the row has none).
    public var passesAction: Bool
    /// The passed values by name: tape indexes of the model's fields, copied byte-for-byte (nil: missing, written as
    /// `null`).
    public var fields: [(name: String, node: Int?)]

    public init(
        name: String, handler: String? = nil, passesAction: Bool = false, fields: [(name: String, node: Int?)] = []
    ) {
        self.name = name
        self.handler = handler
        self.passesAction = passesAction
        self.fields = fields
    }

    public static func == (a: RowEvent, b: RowEvent) -> Bool {
        a.name == b.name && a.handler == b.handler && a.passesAction == b.passesAction
            && a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.node == $1.node }
    }
}
