public import LayoutRecord

/// A successful compile: the record and its serialised bytes.
public struct CompiledLayout: Sendable {
    public let record: LayoutRecord
    /// The record as compact JSON (one line, no newline).
    public let bytes: [UInt8]
}
