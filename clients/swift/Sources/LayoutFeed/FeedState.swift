public import LayoutKit

/// What a feed holds and what each gateway event does to it: the part of `LayoutFeed` that is not networking.
public struct FeedState: Sendable {
    /// The record held and its hash (nil before the first).
    public private(set) var record: [UInt8]?
    public private(set) var hash: ContentHash?

    public init() {}

    /// What to do after an event.
    public enum Step: Sendable, Equatable {
        /// A new record to show.
        case show([UInt8], ContentHash)
        /// Nothing new (the same record again, or a change set already applied).
        case none
        /// The change set does not apply to the record held: fetch the record.
        case fetchRecord
    }

    /// Takes a `record` or `change-set` event from the gateway.
    public mutating func take(_ event: ServerSentEvents.Event) throws(ChangeSetError) -> Step {
        switch event.name {
        case "record": return show(event.data)
        case "change-set":
            do {
                return show(try ChangeSetApplier().apply(event.data, to: record))
            } catch .baseMismatch {
                return .fetchRecord
            }
        default: return .none
        }
    }

    /// Takes a record fetched with GET.
    public mutating func show(_ bytes: [UInt8]) -> Step {
        let h = ContentHash(of: bytes)
        guard h != hash else { return .none }
        (record, hash) = (bytes, h)
        return .show(bytes, h)
    }
}
