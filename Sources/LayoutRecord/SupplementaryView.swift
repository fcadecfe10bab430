/// A header, footer or other supplementary view: its renderer and the model it shows.
public struct SupplementaryView: Sendable, Equatable {
    public var kind: String
    public var renderer: String?
    /// The model as JSON text (copied from the response).
    public var modelJSON: ArraySlice<UInt8>

    public init(kind: String, renderer: String?, modelJSON: ArraySlice<UInt8>) {
        self.kind = kind
        self.renderer = renderer
        self.modelJSON = modelJSON
    }
}
