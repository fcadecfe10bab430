import LayoutKit

/// A navigation state compiled from the origin's response, as the gateway holds it.
public struct HeldState: Sendable {
    /// The layout record, and its gzip (made on the first request that accepts it: `OriginCache.gzip`).
    let record: [UInt8]
    var gzip: [UInt8]?
    let hash: ContentHash
    /// The hash of the origin's response: an unchanged response is not compiled again.
    let responseHash: ContentHash
    let validators: OriginClient.Validators
    /// When the origin last confirmed it (fetched, or answered 304, or answered the same bytes).
    var confirmedAt: ContinuousClock.Instant
    /// The compiler generation it was compiled with (a reloaded config makes it stale).
    let generation: Int

    /// What holding it costs, for the byte budget.
    var bytes: Int { record.count + (gzip?.count ?? 0) + 256 }

    /// The same state confirmed again at `now`.
    func confirmed(at now: ContinuousClock.Instant) -> HeldState {
        var s = self
        s.confirmedAt = now
        return s
    }
}
