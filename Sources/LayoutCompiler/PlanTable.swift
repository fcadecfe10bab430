import LayoutJSON

/// Section plans by content type, found by a hash of the type's UTF-8 bytes: cheaper per item than hashing a
/// `String` key, which a compile does once per content item.
struct PlanTable: Sendable {
    /// Entry indexes by hash slot (-1: empty), open addressing with linear probing.
    private let slots: [Int]
    private let types: [[UInt8]]
    private let plans: [SectionPlan]

    init(_ plans: [String: SectionPlan]) {
        var size = 8
        while size < plans.count * 2 { size *= 2 }
        var slots = [Int](repeating: -1, count: size)
        var types: [[UInt8]] = []
        var values: [SectionPlan] = []
        for (type, plan) in plans {
            let utf8 = Array(type.utf8)
            var slot = Self.slot(utf8, size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = types.count
            types.append(utf8)
            values.append(plan)
        }
        self.slots = slots
        self.types = types
        self.plans = values
    }

    /// The plan for `type`, if the table has one.
    func plan(for type: String) -> SectionPlan? {
        if let found = type.utf8.withContiguousStorageIfAvailable({ plan(for: $0) }) { return found }
        return Array(type.utf8).withUnsafeBufferPointer { plan(for: $0) }
    }

    private func plan(for utf8: UnsafeBufferPointer<UInt8>) -> SectionPlan? {
        let mask = slots.count - 1
        var slot = Self.slot(utf8, mask)
        while true {
            let entry = slots[slot]
            if entry < 0 { return nil }
            if types[entry].count == utf8.count
                && types[entry].withUnsafeBufferPointer({
                    utf8.isEmpty || memcmpEqual($0.baseAddress!, utf8.baseAddress!, utf8.count)
                })
            {
                return plans[entry]
            }
            slot = (slot + 1) & mask
        }
    }

    /// The first slot to probe for `utf8` in a table of `mask + 1` slots.
    private static func slot(_ utf8: UnsafeBufferPointer<UInt8>, _ mask: Int) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        return Int(truncatingIfNeeded: byteHash(base, utf8.count)) & mask
    }

    private static func slot(_ utf8: [UInt8], _ mask: Int) -> Int { utf8.withUnsafeBufferPointer { slot($0, mask) } }
}
