import LayoutKit
public import LayoutRecord

/// A change set as published: its JSON bytes, the records it links, and what it contains.
public struct ChangeSet: Sendable {
    /// The change set format version (the wire contract's, `Wire` in LayoutKit).
    public static let formatVersion = Wire.formatVersion
    /// Its `kind` member, which tells a change set from a record when no header says which.
    public static let kind = Wire.changeSetKind

    /// The change set as one line of JSON.
    public let bytes: [UInt8]
    /// The record it applies to; nil for a key's first layout (a change set from empty).
    public let base: RecordIdentity?
    /// The record applying it produces.
    public let target: RecordIdentity
    public let summary: ChangeSummary
}
