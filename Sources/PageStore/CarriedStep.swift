/// A step a page took whose change set may not be on the change-set topic yet: the consumer group and input offset
/// that made it and the change set as published (nil: the tombstone of a cleared page). A worker keeps a page's
/// steps from inputs its group has not committed, and stores them with the page's latest layout (`Wire.Header.step`),
/// so whichever worker of the group is delivered the page's last input again can publish them again: no step is
/// left without its change set by a crash between the latest layout's acknowledgement and the change set's. Another
/// group (a new one reading the input again) publishes none of them: they were its predecessor's.
public struct CarriedStep: Sendable, Equatable {
    public var group: String
    public var offset: Int64
    public var changeSet: [UInt8]?

    public init(group: String, offset: Int64, changeSet: [UInt8]?) {
        self.group = group
        self.offset = offset
        self.changeSet = changeSet
    }

    /// Bytes held (the change set, the offset and the group).
    public var bytes: Int { (changeSet?.count ?? 0) + 8 + group.utf8.count }

    /// At most this many bytes of steps are kept per page (the oldest go first): they travel as headers of the
    /// page's latest layout, under the producer's message size limit.
    public static let maxBytes = 256 * 1024
    /// At most this many steps are kept per page: published again, they are outputs of one input message with its
    /// record (the delivery engine takes 64 per message). A page taking more steps than this before the first is
    /// acknowledged (a batch holding more of its inputs) carries only the newest.
    public static let maxCount = 62

    /// `steps` without the oldest past `maxBytes` or `maxCount` (and how many went).
    public static func bounded(_ steps: [CarriedStep]) -> (kept: [CarriedStep], dropped: Int) {
        var total = 0
        var first = steps.count
        while first > 0, steps.count - first < maxCount, total + steps[first - 1].bytes <= maxBytes {
            first -= 1
            total += steps[first].bytes
        }
        return (Array(steps[first...]), first)
    }
}
