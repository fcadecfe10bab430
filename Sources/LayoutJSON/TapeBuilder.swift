import CJSONScan

/// The single-pass validating scanner behind `JSONReader`: an explicit container stack, no recursion.
///
/// `run()` keeps the cursor, the node count and the depth in locals for the whole document, and the helpers it
/// calls take them `inout`, so the hot loop does not store them back to memory on every token.
///
/// Long: the parser's hot loop and the helpers it keeps its locals in, one type so they inline (`make bench`).
struct TapeBuilder {
    let base: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    /// The tape being written, room for `capacity` nodes. Every node but one owns at least two input bytes, except
    /// containers still open (at most `maxDepth`), so `capacity(for:maxDepth:)` nodes always suffice; with less,
    /// `run()` may stop with `tapeFull`.
    let nodes: UnsafeMutablePointer<JSONNode>
    /// Open containers, innermost last.
    let frames: UnsafeMutablePointer<Frame>
    let capacity: Int

    /// An open container: its node, members or elements so far, its kind, and the flags gathered for it.
    struct Frame {
        var node: Int
        var count: UInt32
        var isObject: Bool
        var flags: UInt8
    }

    /// Most nodes a `count`-byte input can produce, valid or cut short.
    static func capacity(for count: Int, maxDepth: Int) -> Int { count / 2 + 2 + min(maxDepth, count) }

    /// What `run()` throws when the tape has room for fewer nodes than the input makes (never a syntax error: its
    /// offset is past the input).
    @inline(never)
    static func tapeFull(count: Int) -> JSONSyntaxError {
        JSONSyntaxError(offset: count + 1, reason: .inputTooLarge(limit: count))
    }

    init(
        base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, nodes: UnsafeMutablePointer<JSONNode>, capacity: Int
    ) {
        self.base = base
        self.count = count
        self.maxDepth = maxDepth
        self.nodes = nodes
        self.capacity = capacity
        frames = .allocate(capacity: maxDepth + 1)
    }

    func deallocate() {
        frames.deallocate()
    }

    /// Scans the whole input; returns the number of tape nodes written.
    /// Long: one function on purpose: it is the parser's hot loop (47% of a large page's compile,
    /// docs/performance.md), with its cursor, node count and depth kept in locals across every value; split into
    /// calls, they would go through memory.
    func run() throws(JSONSyntaxError) -> Int {
        var p = 0
        var n = 0
        var d = 0
        // A leading UTF-8 byte order mark is tolerated.
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { p = 3 }
        skipWhitespace(&p)
        if p >= count { throw Self.failure(.emptyInput, at: p) }
        // Whether `"key" :` comes first (at `p`, whitespace skipped): 0 no, 1 first in its object, 2 after a comma.
        var keyDue = 0
        while true {
            if keyDue != 0 {
                // The key is recorded as a string node (written out here, the one place keys are read: the
                // optimizer keeps a called helper out of line).
                guard p < count else { throw Self.failure(.unexpectedEnd(inside: "object"), at: p) }
                let c = base[p]
                if c != UInt8(ascii: "\"") { throw notAKey(c, at: p, afterComma: keyDue == 2) }
                keyDue = 0
                let start = p
                let flags = try scanString(&p)
                try appendScalar(.string, start: start, end: p, flags: flags, &n)
                markSpecialKey(start: start, end: p, flags: flags, depth: d)
                skipWhitespace(&p)
                guard p < count else { throw Self.failure(.unexpectedEnd(inside: "object"), at: p) }
                if base[p] != UInt8(ascii: ":") {
                    throw Self.failure(.unexpectedCharacter(base[p], expected: "':'"), at: p)
                }
                p &+= 1
                skipWhitespace(&p)
            }
            // A value starts at `p` (whitespace already skipped).
            guard p < count else { throw unexpectedEnd(at: p, depth: d) }
            let c = base[p]
            if c == UInt8(ascii: "\"") {
                let start = p
                let flags = try scanString(&p)
                try appendScalar(.string, start: start, end: p, flags: flags, &n)
            } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                if d >= maxDepth { throw Self.failure(.tooDeep(limit: maxDepth), at: p) }
                let isObject = c == UInt8(ascii: "{")
                frames[d] = Frame(node: n, count: 0, isObject: isObject, flags: 0)
                d &+= 1
                try append(
                    JSONNode(
                        start: UInt32(truncatingIfNeeded: p), end: 0, next: 0, count: 0,
                        kind: isObject ? .object : .array, flags: 0), &n)
                p &+= 1
                skipWhitespace(&p)
                if p < count && base[p] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p &+= 1
                    close(at: p, &n, &d)
                } else {
                    // Members and elements are counted as the first one and then one per comma.
                    frames[d &- 1].count = 1
                    if isObject { keyDue = 1 }
                    continue
                }
            } else if c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) {
                try number(&p, &n)
            } else if c == UInt8(ascii: "t") {
                try literal("true", .true, &p, &n)
            } else if c == UInt8(ascii: "f") {
                try literal("false", .false, &p, &n)
            } else if c == UInt8(ascii: "n") {
                try literal("null", .null, &p, &n)
            } else {
                throw notAValue(c, at: p, depth: d)
            }
            // After a value: commas and closing brackets until the next value or the end.
            while true {
                skipWhitespace(&p)
                guard d > 0 else {
                    if p != count { throw Self.failure(.trailingCharacters, at: p) }
                    return n
                }
                let isObject = frames[d &- 1].isObject
                guard p < count else { throw unexpectedEnd(at: p, depth: d) }
                let c = base[p]
                if c == UInt8(ascii: ",") {
                    p &+= 1
                    frames[d &- 1].count &+= 1
                    skipWhitespace(&p)
                    if isObject { keyDue = 2 }
                    break
                } else if c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p &+= 1
                    close(at: p, &n, &d)
                } else {
                    throw Self.failure(.unexpectedCharacter(c, expected: isObject ? "',' or '}'" : "',' or ']'"), at: p)
                }
            }
        }
    }

    @inline(__always)
    private func append(_ node: JSONNode, _ n: inout Int) throws(JSONSyntaxError) {
        if n >= capacity { throw Self.tapeFull(count: count) }
        nodes.advanced(by: n).initialize(to: node)
        n &+= 1
    }

    /// Appends a string, number or literal spanning `start..<end`. Offsets fit in 32 bits: `JSONReader` refuses
    /// larger inputs, and there are fewer nodes than bytes.
    @inline(__always)
    private func appendScalar(_ kind: JSONKind, start: Int, end: Int, flags: UInt8, _ n: inout Int)
        throws(JSONSyntaxError)
    {
        try append(
            JSONNode(
                start: UInt32(truncatingIfNeeded: start), end: UInt32(truncatingIfNeeded: end),
                next: UInt32(truncatingIfNeeded: n &+ 1),
                count: 0, kind: kind, flags: flags), &n)
    }

    @inline(__always)
    private func skipWhitespace(_ p: inout Int) {
        while p < count {
            let c = base[p]
            // Anything above the space is not whitespace; below it, only tab, line feed and return are.
            if c > 0x20 || (c != 0x20 && c != 0x0A && c != 0x0D && c != 0x09) { return }
            p &+= 1
        }
    }

    /// Ends the innermost container at `p` (one past its closing bracket).
    @inline(__always)
    private func close(at p: Int, _ n: inout Int, _ d: inout Int) {
        d &-= 1
        let frame = frames[d]
        let node = nodes.advanced(by: frame.node)
        node.pointee.end = UInt32(truncatingIfNeeded: p)
        node.pointee.next = UInt32(truncatingIfNeeded: n)
        node.pointee.count = frame.count
        node.pointee.flags = frame.flags
        if frame.flags & JSONNode.Flags.itemsBelow != 0 && d > 0 { frames[d &- 1].flags |= JSONNode.Flags.itemsBelow }
    }

    /// Flags the open object when the key in `start..<end` is `@type`, `@class`, `@error`, or escaped.
    @inline(__always)
    private func markSpecialKey(start: Int, end: Int, flags: UInt8, depth d: Int) {
        if flags & JSONNode.Flags.escaped != 0 {
            frames[d &- 1].flags |= JSONNode.Flags.escapedKey | JSONNode.Flags.itemsBelow
            return
        }
        let length = end &- start
        guard (length == 7 || length == 8) && base[start &+ 1] == UInt8(ascii: "@") else { return }
        let s = start &+ 2
        if length == 7 && base[s] == UInt8(ascii: "t") && base[s &+ 1] == UInt8(ascii: "y")
            && base[s &+ 2] == UInt8(ascii: "p")
            && base[s &+ 3] == UInt8(ascii: "e")
        {
            if frames[d &- 1].flags & JSONNode.Flags.typeKey != 0 {
                frames[d &- 1].flags |= JSONNode.Flags.repeatedTypeKey
            }
            frames[d &- 1].flags |= JSONNode.Flags.typeKey | JSONNode.Flags.itemsBelow
        } else if length == 8 && base[s] == UInt8(ascii: "c") && base[s &+ 1] == UInt8(ascii: "l")
            && base[s &+ 2] == UInt8(ascii: "a")
            && base[s &+ 3] == UInt8(ascii: "s") && base[s &+ 4] == UInt8(ascii: "s")
        {
            frames[d &- 1].flags |= JSONNode.Flags.classKey
        } else if length == 8 && base[s] == UInt8(ascii: "e") && base[s &+ 1] == UInt8(ascii: "r")
            && base[s &+ 2] == UInt8(ascii: "r")
            && base[s &+ 3] == UInt8(ascii: "o") && base[s &+ 4] == UInt8(ascii: "r")
        {
            frames[d &- 1].flags |= JSONNode.Flags.errorKey
        }
    }

    /// Scans the string whose opening quote is at `p`, leaving `p` past its closing quote; returns its flags.
    @inline(__always)
    private func scanString(_ p: inout Int) throws(JSONSyntaxError) -> UInt8 {
        let start = p
        var q = p &+ 1
        var flags: UInt8 = 0
        while true {
            // Jump straight to the first byte that needs a look (16 bytes per step where the CPU has SSE2).
            q = cjsonscan_string_stop(base, q, count)
            guard q < count else { throw Self.failure(.unterminatedString, at: start) }
            let c = base[q]
            if c == UInt8(ascii: "\"") {
                p = q &+ 1
                return flags
            } else if c == UInt8(ascii: "\\") {
                flags |= JSONNode.Flags.escaped
                q = try escape(at: q)
            } else if c < 0x20 {
                throw Self.failure(.controlCharacterInString(c), at: q)
            } else if c >= 0x80 {
                q = try utf8Sequence(at: q)
            } else {
                q &+= 1
            }
        }
    }

    @inline(__always)
    private func hexValue(at offset: Int) -> Int? {
        guard offset + 4 <= count else { return nil }
        var value = 0
        for i in 0..<4 {
            let c = base[offset + i]
            let digit: Int
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(c - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(c - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }

    /// Checks the escape whose backslash is at `at`; returns the offset after it.
    private func escape(at: Int) throws(JSONSyntaxError) -> Int {
        guard at + 1 < count else { throw Self.failure(.unterminatedString, at: at) }
        switch base[at + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return at + 2
        case UInt8(ascii: "u"):
            guard let unit = hexValue(at: at + 2) else { throw Self.failure(.invalidEscape, at: at) }
            let after = at + 6
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard after + 1 < count, base[after] == UInt8(ascii: "\\"), base[after + 1] == UInt8(ascii: "u"),
                    let low = hexValue(at: after + 2), low >= 0xDC00 && low <= 0xDFFF
                else { throw Self.failure(.loneSurrogate, at: at) }
                return after + 6
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw Self.failure(.loneSurrogate, at: at)
            }
            return after
        default:
            throw Self.failure(.invalidEscape, at: at)
        }
    }

    @inline(__always)
    private func isContinuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
        offset < count && base[offset] >= low && base[offset] <= high
    }

    /// Checks the UTF-8 sequence whose lead byte is at `at`; returns the offset after it.
    private func utf8Sequence(at: Int) throws(JSONSyntaxError) -> Int {
        let ok: Bool
        let length: Int
        switch base[at] {
        case 0xC2...0xDF:
            length = 2
            ok = isContinuation(at + 1)
        case 0xE0:
            length = 3
            ok = isContinuation(at + 1, 0xA0, 0xBF) && isContinuation(at + 2)
        case 0xED:
            length = 3
            ok = isContinuation(at + 1, 0x80, 0x9F) && isContinuation(at + 2)
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
            ok = isContinuation(at + 1) && isContinuation(at + 2)
        case 0xF0:
            length = 4
            ok = isContinuation(at + 1, 0x90, 0xBF) && isContinuation(at + 2) && isContinuation(at + 3)
        case 0xF1...0xF3:
            length = 4
            ok = isContinuation(at + 1) && isContinuation(at + 2) && isContinuation(at + 3)
        case 0xF4:
            length = 4
            ok = isContinuation(at + 1, 0x80, 0x8F) && isContinuation(at + 2) && isContinuation(at + 3)
        default:
            length = 1
            ok = false
        }
        if !ok { throw Self.failure(.invalidUTF8, at: at) }
        return at + length
    }

    @inline(__always)
    private func isDigit(_ offset: Int) -> Bool {
        offset < count && base[offset] >= UInt8(ascii: "0") && base[offset] <= UInt8(ascii: "9")
    }

    private func number(_ p: inout Int, _ n: inout Int) throws(JSONSyntaxError) {
        let start = p
        var q = p
        var flags: UInt8 = 0
        if base[q] == UInt8(ascii: "-") {
            q += 1
            if q < count && (base[q] == UInt8(ascii: "I") || base[q] == UInt8(ascii: "N")) {
                throw Self.failure(.nonFiniteNumber, at: start)
            }
        }
        guard isDigit(q) else { throw Self.failure(.invalidNumber("expected a digit"), at: q) }
        if base[q] == UInt8(ascii: "0") {
            q += 1
            if isDigit(q) { throw Self.failure(.leadingZero, at: start) }
        } else {
            while isDigit(q) { q += 1 }
        }
        if q < count && base[q] == UInt8(ascii: ".") {
            q += 1
            flags = JSONNode.Flags.fractional
            guard isDigit(q) else { throw Self.failure(.invalidNumber("expected a digit after '.'"), at: q) }
            while isDigit(q) { q += 1 }
        }
        if q < count && (base[q] == UInt8(ascii: "e") || base[q] == UInt8(ascii: "E")) {
            q += 1
            flags = JSONNode.Flags.fractional
            if q < count && (base[q] == UInt8(ascii: "+") || base[q] == UInt8(ascii: "-")) { q += 1 }
            guard isDigit(q) else { throw Self.failure(.invalidNumber("expected a digit in the exponent"), at: q) }
            while isDigit(q) { q += 1 }
        }
        try appendScalar(.number, start: start, end: q, flags: flags, &n)
        p = q
    }

    private func literal(_ word: StaticString, _ kind: JSONKind, _ p: inout Int, _ n: inout Int) throws(JSONSyntaxError)
    {
        let length = word.utf8CodeUnitCount
        guard p + length <= count else { throw Self.failure(.invalidLiteral, at: p) }
        let expected = word.utf8Start
        for i in 0..<length where base[p + i] != expected[i] {
            throw Self.failure(.invalidLiteral, at: p)
        }
        try appendScalar(kind, start: p, end: p + length, flags: 0, &n)
        p += length
    }

    // MARK: - Errors (kept out of the hot loop)

    @inline(never)
    private static func failure(_ reason: JSONSyntaxError.Reason, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, reason: reason)
    }

    /// The input ended where a value, or more of the innermost container, was due.
    @inline(never)
    private func unexpectedEnd(at p: Int, depth d: Int) -> JSONSyntaxError {
        Self.failure(.unexpectedEnd(inside: d == 0 ? "value" : (frames[d - 1].isObject ? "object" : "array")), at: p)
    }

    /// Byte `c` at `p` starts no JSON value.
    @inline(never)
    private func notAValue(_ c: UInt8, at p: Int, depth d: Int) -> JSONSyntaxError {
        switch c {
        case UInt8(ascii: "N"), UInt8(ascii: "I"): return Self.failure(.nonFiniteNumber, at: p)
        case UInt8(ascii: "/"): return Self.failure(.comment, at: p)
        case UInt8(ascii: "'"): return Self.failure(.singleQuotedString, at: p)
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            return Self.failure(
                .unexpectedCharacter(c, expected: d == 0 ? "a value" : "a value (trailing comma?)"), at: p)
        default: return Self.failure(.unexpectedCharacter(c, expected: "a value"), at: p)
        }
    }

    /// Byte `c` at `p` is where an object's key was due.
    @inline(never)
    private func notAKey(_ c: UInt8, at p: Int, afterComma: Bool) -> JSONSyntaxError {
        if c == UInt8(ascii: "'") { return Self.failure(.singleQuotedString, at: p) }
        if c == UInt8(ascii: "/") { return Self.failure(.comment, at: p) }
        return Self.failure(
            .unexpectedCharacter(
                c, expected: afterComma && c == UInt8(ascii: "}") ? "a key (trailing comma?)" : "a string key"), at: p)
    }
}
