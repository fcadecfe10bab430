public import LayoutKit

/// Names one layout record: the source offset it was compiled from and the hash of its bytes.
public struct RecordIdentity: Sendable, Equatable {
    /// The input offset in the record's `source`, when it came from Kafka.
    public var offset: Int64?
    public var hash: ContentHash

    public init(offset: Int64?, hash: ContentHash) {
        self.offset = offset
        self.hash = hash
    }
}
