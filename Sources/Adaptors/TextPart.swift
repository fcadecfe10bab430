public import LayoutJSON

/// Text that is either a string value in the response (kept as its node, written without decoding) or computed text.
public enum TextPart: Sendable, Equatable {
    /// A string node of the response document.
    case node(Int)
    /// Text computed by an adaptor.
    case text(String)

    /// The decoded text.
    public func text(in doc: JSONDocument) -> String {
        switch self {
        case .node(let n): return doc.string(n) ?? ""
        case .text(let s): return s
        }
    }
}
