public import Adaptors

/// Everything about a section but its rows: what the record writer needs before it writes the rows.
public struct SectionHead: Sendable, Equatable {
    /// The section's identity across responses (see `SectionIdentity`; `#group=value` appended for row groups), as
    /// UTF-8: the compiler's ids share one buffer per record rather than being a string each.
    public var idUTF8: ArraySlice<UInt8>
    /// Where the content item sits in this response, e.g. `contents[0].MainContent[2]`.
    public var path: String
    public var index: Int
    /// The content item's `@type`.
    public var type: String
    public var adaptor: String
    public var visible: Bool
    /// The id of the nearest enclosing content item's section (kept in the record), if any, as UTF-8.
    public var parentUTF8: ArraySlice<UInt8>?
    /// The group-by path and this group's value as JSON, for grouped sections.
    public var group: (by: String, valueJSON: [UInt8])?
    public var attributes: [Attribute]
    public var supplementary: [SupplementaryView]
    public var placeholder: LayoutPlaceholder?

    public init(
        idUTF8: ArraySlice<UInt8>, path: String, index: Int, type: String, adaptor: String, visible: Bool,
        parentUTF8: ArraySlice<UInt8>?, group: (by: String, valueJSON: [UInt8])? = nil, attributes: [Attribute] = [],
        supplementary: [SupplementaryView] = [],
        placeholder: LayoutPlaceholder? = nil
    ) {
        self.idUTF8 = idUTF8
        self.path = path
        self.index = index
        self.type = type
        self.adaptor = adaptor
        self.visible = visible
        self.parentUTF8 = parentUTF8
        self.group = group
        self.attributes = attributes
        self.supplementary = supplementary
        self.placeholder = placeholder
    }

    public static func == (a: SectionHead, b: SectionHead) -> Bool {
        a.idUTF8.elementsEqual(b.idUTF8) && a.path == b.path && a.index == b.index && a.type == b.type
            && a.adaptor == b.adaptor
            && a.visible == b.visible
            && a.parentUTF8.map(Array.init) == b.parentUTF8.map(Array.init) && a.group?.by == b.group?.by
            && a.group?.valueJSON == b.group?.valueJSON
            && a.attributes == b.attributes && a.supplementary == b.supplementary && a.placeholder == b.placeholder
    }

    /// The section's id (see `idUTF8`).
    public var id: String {
        get { String(decoding: idUTF8, as: UTF8.self) }
        set { idUTF8 = ArraySlice(newValue.utf8) }
    }

    /// The parent section's id, if any (see `parentUTF8`).
    public var parent: String? {
        get { parentUTF8.map { String(decoding: $0, as: UTF8.self) } }
        set { parentUTF8 = newValue.map { ArraySlice($0.utf8) } }
    }
}
