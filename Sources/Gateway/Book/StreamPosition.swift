public import LayoutKit

/// Where a client of a page's stream is: the content hash of the record it holds and, when known, that record's
/// position (the input offset it was compiled from, `source.offset`: it only grows for a page, and every replica
/// reads the same topics, so two gateways agree on it). Sent as each event's `id` (`HASH@OFFSET`, or `HASH`
/// alone when the record has no position) and taken back from `Last-Event-ID`, so a resume is exact: a gateway
/// that is behind the client's position sends nothing older, it waits until it catches up.
public struct StreamPosition: Sendable, Equatable, CustomStringConvertible {
    public var hash: ContentHash
    public var offset: Int64?

    public init(hash: ContentHash, offset: Int64?) {
        self.hash = hash
        self.offset = offset
    }

    /// Reads `HASH` or `HASH@OFFSET`; nil for anything else.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let hash = ContentHash(hex: String(parts[0])) else { return nil }
        guard parts.count == 2 else {
            self.init(hash: hash, offset: nil)
            return
        }
        guard let offset = Int64(parts[1]), offset >= 0 else { return nil }
        self.init(hash: hash, offset: offset)
    }

    public var description: String { offset.map { "\(hash)@\($0)" } ?? hash.description }
}
