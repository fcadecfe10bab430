/// One JSON text read in place: values are byte ranges (spans) of the text, so whatever the applier copies it copies
/// exactly. One pass at the start pairs every bracket with its match (by kind) and finds every string's end, so
/// skipping a whole object or array later costs a lookup, not another scan; members and elements are checked where
/// they are walked; scalars are not parsed beyond what is asked of them, because an applied record is checked by its
/// hash anyway. Every read is bounds-checked: malformed text gives a `ChangeSetError`, never a trap.
struct JSONText: Sendable {
    /// A value's bytes: `start` is its first byte, `end` one past its last.
    struct Span: Sendable, Equatable {
        var start: Int
        var end: Int
    }

    struct Member: Sendable {
        /// The key token, quotes included.
        var key: Span
        var value: Span
    }

    enum Kind: Sendable, Equatable { case object, array, string, number, bool, null }

    let bytes: [UInt8]
    let root: Span
    /// What the text is, for error messages ("change set", "record").
    let what: String
    /// Where each object and array starts, in text order, and where it ends (one past its closing bracket).
    private let containerStarts: [Int]
    private let containerEnds: [Int]

    init(_ bytes: [UInt8], what: String) throws(ChangeSetError) {
        self.bytes = bytes
        self.what = what
        var start = 0
        // A leading byte order mark is tolerated, as the server's reader does.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        start = Self.skipSpace(bytes, start)
        guard start < bytes.count else { throw .invalidChangeSet("the \(what) is empty") }
        let (starts, ends) = try Self.pairBrackets(bytes, what)
        containerStarts = starts
        containerEnds = ends
        let end = try Self.valueEnd(start, bytes, starts, ends, what)
        guard Self.skipSpace(bytes, end) == bytes.count else {
            throw .invalidChangeSet("the \(what) has bytes after its JSON value (at \(end))")
        }
        root = Span(start: start, end: end)
    }

    func kind(_ s: Span) -> Kind {
        switch byte(s.start) {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "n"): .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
        default: .number
        }
    }

    func raw(_ s: Span) -> ArraySlice<UInt8> { bytes[s.start..<s.end] }

    /// The members of object `s`, in order.
    func members(_ s: Span) throws(ChangeSetError) -> [Member] {
        guard kind(s) == .object else { throw .invalidChangeSet("an object was expected at byte \(s.start)") }
        var out: [Member] = []
        var i = Self.skipSpace(bytes, s.start + 1)
        if byte(i) == UInt8(ascii: "}") { return out }
        while true {
            guard byte(i) == UInt8(ascii: "\"") else { throw .invalidChangeSet("a key was expected at byte \(i)") }
            let keyEnd = try Self.stringEnd(bytes, i, what)
            var j = Self.skipSpace(bytes, keyEnd)
            guard byte(j) == UInt8(ascii: ":") else { throw .invalidChangeSet("':' was expected at byte \(j)") }
            j = Self.skipSpace(bytes, j + 1)
            let end = try valueEnd(j)
            out.append(Member(key: Span(start: i, end: keyEnd), value: Span(start: j, end: end)))
            i = Self.skipSpace(bytes, end)
            if byte(i) == UInt8(ascii: "}") { return out }
            guard byte(i) == UInt8(ascii: ",") else { throw .invalidChangeSet("',' or '}' was expected at byte \(i)") }
            i = Self.skipSpace(bytes, i + 1)
        }
    }

    /// The elements of array `s`, in order.
    func elements(_ s: Span) throws(ChangeSetError) -> [Span] {
        guard kind(s) == .array else { throw .invalidChangeSet("an array was expected at byte \(s.start)") }
        var out: [Span] = []
        var i = Self.skipSpace(bytes, s.start + 1)
        if byte(i) == UInt8(ascii: "]") { return out }
        while true {
            let end = try valueEnd(i)
            out.append(Span(start: i, end: end))
            i = Self.skipSpace(bytes, end)
            if byte(i) == UInt8(ascii: "]") { return out }
            guard byte(i) == UInt8(ascii: ",") else { throw .invalidChangeSet("',' or ']' was expected at byte \(i)") }
            i = Self.skipSpace(bytes, i + 1)
        }
    }

    /// The value of member `key` of `s` (the first when a key repeats), or nil (also when `s` is not an object).
    func value(_ s: Span, _ key: StaticString) throws(ChangeSetError) -> Span? {
        guard kind(s) == .object else { return nil }
        for m in try members(s) where keyEquals(m.key, key) { return m.value }
        return nil
    }

    /// The values of `keys` in object `s` (each the first occurrence, nil when missing or `s` is not an object), in
    /// one pass over its members: each `value` call walks the whole object again, members and their values alike.
    func values(_ s: Span, _ keys: [StaticString]) throws(ChangeSetError) -> [Span?] {
        var found = [Span?](repeating: nil, count: keys.count)
        guard kind(s) == .object else { return found }
        for m in try members(s) {
            for (k, key) in keys.enumerated() where found[k] == nil && keyEquals(m.key, key) { found[k] = m.value }
        }
        return found
    }

    /// Whether the key token `k` (quotes included) spells `key`.
    func keyEquals(_ k: Span, _ key: StaticString) -> Bool {
        let body = bytes[(k.start + 1)..<(k.end - 1)]
        let spelled = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        if !body.contains(UInt8(ascii: "\\")) { return body.elementsEqual(spelled) }
        return string(k).map { $0.utf8.elementsEqual(spelled) } ?? false
    }

    /// A number that is an integer and fits in `Int`; nil for anything else.
    func int(_ s: Span?) -> Int? {
        guard let s, kind(s) == .number else { return nil }
        return Int(String(decoding: raw(s), as: UTF8.self))
    }

    /// A string's decoded text; nil for anything else or a malformed escape.
    func string(_ s: Span?) -> String? {
        guard let s, kind(s) == .string, s.end - s.start >= 2 else { return nil }
        return Self.decode(bytes[(s.start + 1)..<(s.end - 1)])
    }

    // MARK: - Scanning

    /// The byte at `i`, or 0 past the end (0 is never valid where a read looks for structure).
    private func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

    static func skipSpace(_ b: [UInt8], _ i: Int) -> Int {
        var i = i
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        return i
    }

    /// Pairs every `{` and `[` outside strings with its closing bracket, in one pass over the text.
    static func pairBrackets(_ b: [UInt8], _ what: String) throws(ChangeSetError) -> (starts: [Int], ends: [Int]) {
        var starts: [Int] = [], ends: [Int] = [], open: [Int] = []
        var i = 0
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "\""):
                i = try stringEnd(b, i, what)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open.append(starts.count)
                starts.append(i)
                ends.append(-1)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let k = open.popLast(), (b[starts[k]] == UInt8(ascii: "{")) == (b[i] == UInt8(ascii: "}")) else {
                    throw .invalidChangeSet("a mismatched '\(UnicodeScalar(b[i]))' at byte \(i) of the \(what)")
                }
                ends[k] = i + 1
            default: break
            }
            i += 1
        }
        if let k = open.last {
            throw .invalidChangeSet(
                "an unterminated \(b[starts[k]] == UInt8(ascii: "{") ? "object" : "array") at byte \(starts[k])")
        }
        return (starts, ends)
    }

    /// One past the end of the value starting at `i`.
    func valueEnd(_ i: Int) throws(ChangeSetError) -> Int {
        try Self.valueEnd(i, bytes, containerStarts, containerEnds, what)
    }

    /// One past the end of the value starting at `i` of `bytes`, whose containers `pairBrackets` found.
    private static func valueEnd(
        _ i: Int, _ bytes: [UInt8], _ containerStarts: [Int], _ containerEnds: [Int], _ what: String
    ) throws(ChangeSetError) -> Int {
        guard i < bytes.count else { throw .invalidChangeSet("the \(what) ends where a value was expected") }
        switch bytes[i] {
        case UInt8(ascii: "\""):
            return try stringEnd(bytes, i, what)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // The bracket's match, found by binary search among the containers' starts.
            var low = 0, high = containerStarts.count
            while low < high {
                let mid = (low + high) / 2
                if containerStarts[mid] < i { low = mid + 1 } else { high = mid }
            }
            // Every bracket outside a string has its entry; one inside a string is never a value's first byte.
            guard low < containerStarts.count, containerStarts[low] == i else {
                throw .invalidChangeSet("a value was expected at byte \(i) of the \(what)")
            }
            return containerEnds[low]
        default:
            var j = i
            while j < bytes.count {
                let c = bytes[j]
                if c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == 0x20 || c == 0x0A
                    || c == 0x0D || c == 0x09
                {
                    break
                }
                j += 1
            }
            guard j > i else { throw .invalidChangeSet("a value was expected at byte \(i) of the \(what)") }
            return j
        }
    }

    /// One past the closing quote of the string opening at `i`.
    static func stringEnd(_ b: [UInt8], _ i: Int, _ what: String) throws(ChangeSetError) -> Int {
        var j = i + 1
        while j < b.count {
            if b[j] == UInt8(ascii: "\\") {
                j += 2
                continue
            }
            if b[j] == UInt8(ascii: "\"") { return j + 1 }
            j += 1
        }
        throw .invalidChangeSet("an unterminated string at byte \(i) of the \(what)")
    }

    /// The text of a string body with its escapes decoded (a lone surrogate becomes U+FFFD); nil when malformed.
    static func decode(_ body: ArraySlice<UInt8>) -> String? {
        guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
        return JSONEscapes.unescape(body).map { String(decoding: $0, as: UTF8.self) }
    }
}
