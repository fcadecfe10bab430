/// The supplementary view kinds a record gives members of their own (`header`, `footer`); a config may name any
/// other kind, which lands in the section's `supplementary` object under that name.
public enum SupplementaryKind {
    public static let header = "header"
    public static let footer = "footer"
}
