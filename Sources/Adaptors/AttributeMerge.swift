import LayoutJSON

/// How a carried section attribute's previous value and its new one become the value published (the rules a config
/// can name in `carry`; EMAdaptorManager's `adaptorAttributes`, which persist across reloads).
public enum AttributeMerge: String, Sendable, CaseIterable {
    /// The first value seen stays while the section does.
    case keep
    /// A `{"first", "last"}` window: a new window that continues the previous one extends it, one inside it keeps
    /// it, any other replaces it (records loaded so far, for infinite scrolling).
    case window
    /// An array: the previous elements, then the new ones not among them (same JSON bytes); past
    /// `unionLimit` elements the new value starts over.
    case union
    /// A number: the larger of the two.
    case max
    /// A number: the smaller of the two.
    case min
    /// Not carried: the new value as computed (turns off an adaptor's own carry).
    case none

    /// The most elements a `union` keeps.
    public static let unionLimit = 10_000

    /// The carry of attribute `name` by this rule.
    public func carry(named name: String) -> AttributeCarry {
        let key = JSONKey(name)
        let rule = self
        return AttributeCarry(name: name) { previous, old, current, attributes in
            guard let new = current.value(attributes, key) else { return nil }
            return rule.merge(previous, old, current, new)
        }
    }

    /// The value to publish from the previous value `old` and the new one `new`; nil keeps `new`.
    func merge(_ previous: JSONDocument, _ old: Int, _ current: JSONDocument, _ new: Int) -> [UInt8]? {
        switch self {
        case .none:
            return nil
        case .keep:
            return Array(previous.raw(old))
        case .window:
            guard let pFirst = previous.value(old, Self.first).flatMap(previous.int),
                let pLast = previous.value(old, Self.last).flatMap(previous.int),
                let first = current.value(new, Self.first).flatMap(current.int),
                let last = current.value(new, Self.last).flatMap(current.int)
            else { return nil }
            // `pLast` comes from a previous record, so it may be any integer: compared without adding to it.
            if pLast < Int.max, first == pLast + 1 { return Array(#"{"first":\#(pFirst),"last":\#(last)}"#.utf8) }
            if first >= pFirst && last <= pLast { return Array(previous.raw(old)) }
            return nil
        case .union:
            guard previous.kind(old) == .array, current.kind(new) == .array else { return nil }
            let kept = previous.elements(old).map { previous.raw($0) }
            var seen = Set(kept)
            var added: [ArraySlice<UInt8>] = []
            for element in current.elements(new) where seen.insert(current.raw(element)).inserted {
                added.append(current.raw(element))
            }
            guard kept.count + added.count <= Self.unionLimit else { return nil }
            var out: [UInt8] = [UInt8(ascii: "[")]
            for (n, element) in (kept + added).enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: element)
            }
            out.append(UInt8(ascii: "]"))
            return out
        case .max, .min:
            guard previous.kind(old) == .number, current.kind(new) == .number,
                let a = previous.double(old), let b = current.double(new)
            else { return nil }
            return (self == .max ? a > b : a < b) ? Array(previous.raw(old)) : nil
        }
    }

    static let first: JSONKey = "first"
    static let last: JSONKey = "last"
}
