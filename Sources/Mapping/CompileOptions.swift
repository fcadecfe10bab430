/// Record-shaping switches from the config's `options`.
public struct CompileOptions: Sendable, Equatable {
    /// Leave container sections (no rows, not visible) out of the record; section indexes then skip them.
    public var omitContainers = false
    /// An empty refinement menu shows a no-results placeholder.
    public var emptyMenusShowNoResults = false
    /// An item with `contentPaths` but no children and no rows shows a loading placeholder.
    public var emptySlotsShowLoading = false
    /// A placeholder no mapping matches gets its kind's built-in renderer (`LoadingPlaceholder`,
    /// `NoResultsPlaceholder`, `ErrorPlaceholder`); false reports it as unmapped.
    public var builtInPlaceholders = true
    /// Deepest JSON nesting accepted.
    public var maxDepth = 512

    public init() {}
}
