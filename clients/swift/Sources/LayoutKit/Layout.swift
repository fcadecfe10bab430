/// The layout record format: its version, and the typed models of records and change sets (`Layout.Record`,
/// `Layout.Section`, `Layout.Row`, `Layout.ChangeSet`, ...), decoded with `JSONDecoder`.
public enum Layout {
    /// The record and change-set format version this kit reads.
    public static let formatVersion = 2
}
