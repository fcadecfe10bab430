/// Counts of what a change set does.
public struct ChangeSummary: Sendable, Equatable {
    public var sectionInserts = 0
    public var sectionDeletes = 0
    public var sectionMoves = 0
    public var sectionUpdates = 0
    /// Sections that only moved in the response's tree (a new `path`, listed in `sections.paths`).
    public var sectionPaths = 0
    public var rowInserts = 0
    public var rowDeletes = 0
    public var rowMoves = 0
    public var rowUpdates = 0
    /// Lists (the section list or a section's rows) replaced whole because of duplicate ids.
    public var replacedLists = 0
    /// True when the whole record is replaced (its top-level members differ in name or order).
    public var replacedRecord = false
    /// Top-level record members (source, page, diagnostics...) that changed.
    public var recordMembers = 0

    public init() {}
}
