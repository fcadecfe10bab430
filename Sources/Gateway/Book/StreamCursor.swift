public import LayoutKit

/// One stream's client, as the gateway knows it: the hash of the record it holds and the newest position it is
/// known to have (`floor`). Decides what each event does for it; nothing older than the floor is ever sent, so a
/// client that resumes on a replica that is behind it waits there instead of going back in time.
public struct StreamCursor: Sendable, Equatable {
    public private(set) var held: ContentHash?
    public private(set) var floor: Int64?

    public init(held: ContentHash?, floor: Int64?) {
        self.held = held
        self.floor = floor
    }

    /// A client brought to `at` (no older than `floor`).
    init(at: StreamPosition, floor: Int64? = nil) {
        self.init(held: nil, floor: floor)
        moved(to: at)
    }

    /// What a stream does with an event.
    public enum Decision: Sendable, Equatable {
        /// Write it.
        case send
        /// Nothing: the client has it, or it is older than what the client holds.
        case skip
        /// The client cannot apply it (a gap): send the page's current record instead.
        case sendRecord
    }

    public func decide(_ event: EventBytes.Kind) -> Decision {
        let target = event.target
        if let floor, let at = target.offset, at < floor { return .skip }
        switch event {
        case .record: return target.hash == held ? .skip : .send
        case .changeSet(let base, _):
            if base == held { return .send }
            // One the client is already past (its record came first), or a gap the record closes.
            return target.hash == held ? .skip : .sendRecord
        }
    }

    /// Whether the page's record at `at` is worth sending: not what the client holds, and not older than it.
    public func wants(record at: StreamPosition) -> Bool {
        guard at.hash != held else { return false }
        if let floor, let offset = at.offset, offset < floor { return false }
        return true
    }

    /// The client was sent what leads to `at`.
    public mutating func moved(to at: StreamPosition) {
        held = at.hash
        if let offset = at.offset { floor = max(floor ?? offset, offset) }
    }
}
