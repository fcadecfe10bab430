public import ContentTree

/// What an adaptor makes of one content item: rows, attributes and placeholders.
public struct AdaptedSection: Sendable {
    /// The rows, in order.
    public var rows: [AdaptedRow] = []
    /// Section attributes (paging, totals, links), in the adaptor's order.
    public var attributes: [Attribute] = []
    /// True for items that only hold other content items; such sections have no rows and are not visible.
    public var isContainer = false
    /// A placeholder the section shows, if any.
    public var placeholder: PlaceholderKind?
    /// Why the placeholder is an error, for `error` placeholders.
    public var placeholderMessage: String?
    /// Findings about this item.
    public var diagnostics: [Diagnostic] = []

    public init() {}

    /// A section whose rows could not be read: no rows, an error placeholder and an error diagnostic.
    public static func unreadable(_ item: ContentItem, field: String, reason: String) -> AdaptedSection {
        var section = AdaptedSection()
        section.placeholder = .error
        section.placeholderMessage = "\(field) \(reason)"
        section.diagnostics.append(
            Diagnostic(
                .error, .rowsUnreadable, path: item.path,
                "\(item.type).\(field) \(reason); the section shows an error placeholder"))
        return section
    }
}

/// One group of rows sharing a group-by value, in output order.
public struct RowGroup: Sendable, Equatable {
    /// The group value as JSON text (a copied JSON value, or `null` for rows without one).
    public var valueJSON: [UInt8]
    /// The group value as text, used in the section id: a string's text (in quotes when another group's value reads
    /// the same), other scalars' JSON, a related object's identity.
    public var label: String
    /// Indexes into `AdaptedSection.rows`.
    public var rows: [Int]
    /// True when the value is a JSON string.
    public var isString: Bool { valueJSON.first == UInt8(ascii: "\"") }
}
