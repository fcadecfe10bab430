public import LayoutJSON

/// Text taken from the response without decoding: a string node, a string node as a query (`?` and the text), or
/// nothing. Holds no references, so actions made of these copy as plain bytes.
public enum TextPart: Sendable, Equatable {
    /// A string node of the response document.
    case node(Int)
    /// `?` followed by the string node's text, or nothing when that text is empty (a link's query string).
    case query(Int)
    /// No text.
    case empty

    /// The decoded text.
    public func text(in doc: JSONDocument) -> String {
        switch self {
        case .node(let n): return doc.string(n) ?? ""
        case .query(let n):
            let text = doc.string(n) ?? ""
            return text.isEmpty ? "" : "?" + text
        case .empty: return ""
        }
    }
}
