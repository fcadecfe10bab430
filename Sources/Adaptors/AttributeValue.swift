import LayoutJSON

/// A value in a section's attributes: copied JSON, a computed scalar, an action, or a nesting of these.
/// Scalars and actions hold no boxes (nesting goes through arrays), so they cost no allocation.
public enum AttributeValue: Sendable, Equatable {
    case json(node: Int)
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case action(RowAction)
    case list([AttributeValue])
    case object([Attribute])
}

/// A named attribute value; order is kept as the adaptor gives it.
public struct Attribute: Sendable, Equatable {
    public var name: String
    public var value: AttributeValue

    public init(_ name: String, _ value: AttributeValue) {
        self.name = name
        self.value = value
    }
}
