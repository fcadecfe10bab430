import Adaptors

/// The supplementary and placeholder mappings that can apply to sections of one content type under one adaptor,
/// looked up once per type instead of once per section. A class: sections share it without copying its lists.
public final class SectionMappings: Sendable {
    /// The section's content type.
    public let sectionType: String
    /// The adaptor's name (the second level of each fallback).
    public let adaptor: String
    /// The section levels of the row fallback chain (section type, then adaptor) that are mapped, as
    /// `RendererResolver.rowTypes` indexes.
    let rows: [Int]
    /// Supplementary candidates in lookup order: the section type's kinds, then the adaptor's.
    let supplementary: [(kind: String, type: String, candidates: [Int])]
    /// Placeholder levels (type, candidates) per kind, in `placeholderKinds` order; empty levels left out.
    let placeholders: [[(type: String, candidates: [Int])]]

    init(
        sectionType: String, adaptor: String, rows: [Int],
        supplementary: [(kind: String, type: String, candidates: [Int])],
        placeholders: [[(type: String, candidates: [Int])]]
    ) {
        self.sectionType = sectionType
        self.adaptor = adaptor
        self.rows = rows
        self.supplementary = supplementary
        self.placeholders = placeholders
    }

    /// The placeholder kinds in slot order (`allCases` made once: each use of it builds a new array).
    static let placeholderKinds = PlaceholderKind.allCases

    /// The slot of `kind` in `placeholders`.
    static func slot(_ kind: PlaceholderKind) -> Int { placeholderKinds.firstIndex(of: kind)! }
}
