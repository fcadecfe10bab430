public import Adaptors

/// A loading, no-results or error placeholder shown by a section.
public struct LayoutPlaceholder: Sendable, Equatable {
    public var kind: PlaceholderKind
    public var renderer: String?
    /// For errors: the item's `@error` text or why its rows could not be read.
    public var message: String?

    public init(kind: PlaceholderKind, renderer: String?, message: String?) {
        self.kind = kind
        self.renderer = renderer
        self.message = message
    }
}
