public import LayoutJSON

/// One section attribute an adaptor keeps across reloads of a page (EMAdaptorManager's `adaptorAttributes`).
public struct AttributeCarry: Sendable {
    /// The attribute's name in the section's `attributes`.
    public let name: String
    /// The value to publish, as JSON, from the previous layout's value and the new section's attributes object;
    /// nil keeps the value the adaptor computed.
    public let merge:
        @Sendable (_ previous: JSONDocument, _ value: Int, _ current: JSONDocument, _ attributes: Int) -> [UInt8]?

    public init(name: String, merge: @escaping @Sendable (JSONDocument, Int, JSONDocument, Int) -> [UInt8]?) {
        self.name = name
        self.merge = merge
    }
}
