public import LayoutKit

/// What the page store keeps per page key: the latest record (nil once a tombstone cleared the page), the position
/// of the input that made it (the worker's, so a re-delivered older input never moves the page back; kept with a
/// tombstone), the page's recent change sets (the gateway's, for streams that resume), and the steps whose change
/// sets may not be on the change-set topic yet (the worker's, published again if their input comes again).
public struct StoredPage: Sendable, Equatable {
    public var position: Int64?
    public var record: [UInt8]?
    /// Oldest first.
    public var history: [StoredChange]
    /// Oldest first.
    public var steps: [CarriedStep]

    public init(position: Int64? = nil, record: [UInt8]?, history: [StoredChange] = [], steps: [CarriedStep] = []) {
        self.position = position
        self.record = record
        self.history = history
        self.steps = steps
    }

    /// Whether it holds a record or change sets (not only a position).
    public var hasContent: Bool { record != nil || !history.isEmpty }
    /// Bytes of record and change sets.
    public var bytes: Int {
        (record?.count ?? 0) + history.reduce(0) { $0 + $1.bytes.count } + steps.reduce(0) { $0 + $1.bytes }
    }
}

/// One change set a page went through: the hashes it leads from and to, and its bytes as published.
public struct StoredChange: Sendable, Equatable {
    public var base: ContentHash?
    public var target: ContentHash
    public var bytes: [UInt8]

    public init(base: ContentHash?, target: ContentHash, bytes: [UInt8]) {
        self.base = base
        self.target = target
        self.bytes = bytes
    }
}
