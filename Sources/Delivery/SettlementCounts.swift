/// How many messages ended which way: the one place a settlement becomes a count (`serve`'s accounting and each
/// partition of a replay's summary both keep one).
public struct SettlementCounts: Sendable, Equatable {
    public var published = 0
    public var tombstoned = 0
    public var skipped = 0
    public var deadLettered = 0
    public var deadLetteredByCode: [String: Int] = [:]

    public init() {}

    /// Counts one message.
    public mutating func add(_ settlement: DeliveryEngine.Settlement) {
        switch settlement {
        case .published: published += 1
        case .tombstoned: tombstoned += 1
        case .skipped: skipped += 1
        case .deadLettered(let code):
            deadLettered += 1
            deadLetteredByCode[code, default: 0] += 1
        }
    }

    /// Every message counted.
    public var total: Int { published + tombstoned + skipped + deadLettered }
}
