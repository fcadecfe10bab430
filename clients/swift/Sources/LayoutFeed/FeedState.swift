public import LayoutKit

/// What a feed holds and what each gateway event does to it: the part of `LayoutFeed` that is not networking.
public struct FeedState: Sendable {
    /// The record held and its hash (nil before the first).
    public private(set) var record: [UInt8]?
    public private(set) var hash: ContentHash?
    /// The id of the event that brought the record held (`HASH@POSITION`): sent back as `Last-Event-ID`, it lets a
    /// gateway tell whether it is behind the client (it then sends nothing older). nil after a record fetched with
    /// GET (the hash alone is sent then).
    public private(set) var eventID: String?

    public init() {}

    /// What to send as `Last-Event-ID`: the event id held, else the hash.
    public var lastEventID: String? { eventID ?? hash?.description }

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
        let step: Step
        switch event.name {
        case "record": step = show(event.data)
        case "change-set":
            do {
                step = show(try ChangeSetApplier().apply(event.data, to: record))
            } catch .baseMismatch {
                return .fetchRecord
            }
        default: return .none
        }
        if let id = event.id, let hash, id.hasPrefix(hash.description) { eventID = id }
        return step
    }

    /// Takes a record fetched with GET.
    public mutating func show(_ bytes: [UInt8]) -> Step {
        let h = ContentHash(of: bytes)
        guard h != hash else { return .none }
        (record, hash, eventID) = (bytes, h, nil)
        return .show(bytes, h)
    }
}
