/// The special rows a section shows instead of (or beside) its content.
public enum PlaceholderKind: String, Sendable, CaseIterable {
    /// Content is deferred (e.g. an include slot with content paths but no children yet).
    case loading
    /// The item has nothing to show (e.g. a results list with zero records).
    case noResults
    /// The item reported an error (`@error`) or its rows could not be read.
    case error

    /// The renderer a placeholder of this kind gets when no mapping matches (`options.builtInPlaceholders`); the
    /// renderer kits in `clients/` register one under each name.
    public var builtInRenderer: String {
        switch self {
        case .loading: return "LoadingPlaceholder"
        case .noResults: return "NoResultsPlaceholder"
        case .error: return "ErrorPlaceholder"
        }
    }
}
