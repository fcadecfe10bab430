public import LayoutJSON

/// Where a section's id comes from, so that it survives siblings being added, removed or reordered.
public enum SectionIdentity: Sendable, Equatable {
    /// The editor's identity of the cartridge (`endeca:auditInfo`'s `ecr:resourcePath` and `ecr:innerPath`); items
    /// without it fall back to `.name`. The default.
    case editor
    /// The parent section's id, the item's `@type` and its `name`, with its occurrence among siblings that share them.
    case name
    /// The item's place in this response's tree (`contents[0].MainContent[2]`): shifts when a sibling is inserted above.
    case path
    /// The `@type` and the string or number at a field of the item; items without it fall back to `.name`.
    case field(FieldPath)

    /// Reads `editor`, `name`, `path` or `field:PATH`.
    public init?(text: String) {
        switch text {
        case "editor": self = .editor
        case "name": self = .name
        case "path": self = .path
        default:
            guard text.hasPrefix("field:"), let path = try? FieldPath(parsing: String(text.dropFirst(6))) else {
                return nil
            }
            self = .field(path)
        }
    }
}
