/// The special rows a section shows instead of (or beside) its content.
public enum PlaceholderKind: String, Sendable, CaseIterable {
    /// Content is deferred (e.g. an include slot with content paths but no children yet).
    case loading
    /// The item has nothing to show (e.g. a results list with zero records).
    case noResults
    /// The item reported an error (`@error`) or its rows could not be read.
    case error
}
