/// How a row, supplementary view or placeholder found (or failed to find) its renderer.
public enum Resolution: Sendable, Equatable {
    /// Exactly one mapping matched, at `type` in the fallback chain.
    case resolved(renderer: String, type: String)
    /// No mapping matched; the config's default renderer was used.
    case defaulted(renderer: String)
    /// No mapping matched and there is no default renderer; `tried` is the fallback chain.
    case unmapped(tried: [String])
    /// More than one mapping matched at `type`.
    case ambiguous(type: String, renderers: [String])

    /// The renderer chosen, if any.
    public var renderer: String? {
        switch self {
        case .resolved(let r, _), .defaulted(let r): return r
        default: return nil
        }
    }
}
