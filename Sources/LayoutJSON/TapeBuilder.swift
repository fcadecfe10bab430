/// The single-pass validating scanner behind `JSONReader`: an explicit container stack, no recursion.
struct TapeBuilder {
    let base: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    var pos = 0
    /// The tape being written. Every node but one owns at least two input bytes, except containers still
    /// open (at most `maxDepth`), so `capacity(for:maxDepth:)` nodes always suffice and the tape never grows.
    let nodes: UnsafeMutablePointer<JSONNode>
    var nodeCount = 0
    /// Open containers: node index, child count and whether it is an object.
    let stackNodes: UnsafeMutablePointer<Int>
    let stackCounts: UnsafeMutablePointer<UInt32>
    let stackIsObject: UnsafeMutablePointer<Bool>
    let stackFlags: UnsafeMutablePointer<UInt8>
    var depth = 0

    let capacity: Int

    /// Most nodes a `count`-byte input can produce, valid or cut short.
    static func capacity(for count: Int, maxDepth: Int) -> Int { count / 2 + 2 + min(maxDepth, count) }

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, nodes: UnsafeMutablePointer<JSONNode>) {
        self.base = base
        self.count = count
        self.maxDepth = maxDepth
        self.nodes = nodes
        self.capacity = Self.capacity(for: count, maxDepth: maxDepth)
        stackNodes = .allocate(capacity: maxDepth + 1)
        stackCounts = .allocate(capacity: maxDepth + 1)
        stackIsObject = .allocate(capacity: maxDepth + 1)
        stackFlags = .allocate(capacity: maxDepth + 1)
    }

    func deallocate() {
        stackNodes.deallocate()
        stackCounts.deallocate()
        stackIsObject.deallocate()
        stackFlags.deallocate()
    }

    @inline(__always)
    private mutating func append(_ node: JSONNode) {
        precondition(nodeCount < capacity, "JSON tape capacity bound violated")
        nodes.advanced(by: nodeCount).initialize(to: node)
        nodeCount &+= 1
    }

    private func fail(_ reason: JSONSyntaxError.Reason, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? pos, reason: reason)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while pos < count {
            let c = base[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
        }
    }

    mutating func run() throws(JSONSyntaxError) {
        // A leading UTF-8 byte order mark is tolerated.
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { pos = 3 }
        skipWhitespace()
        if pos >= count { throw fail(.emptyInput) }
        var needValue = true
        while true {
            if needValue {
                skipWhitespace()
                needValue = try value()
                continue
            }
            skipWhitespace()
            guard depth > 0 else {
                if pos != count { throw fail(.trailingCharacters) }
                return
            }
            let isObject = stackIsObject[depth - 1]
            guard pos < count else { throw fail(.unexpectedEnd(inside: isObject ? "object" : "array")) }
            let c = base[pos]
            if c == UInt8(ascii: ",") {
                pos += 1
                if isObject {
                    skipWhitespace()
                    try key(afterComma: true)
                }
                needValue = true
            } else if c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                pos += 1
                close()
            } else {
                throw fail(.unexpectedCharacter(c, expected: isObject ? "',' or '}'" : "',' or ']'"))
            }
        }
    }

    /// Parses the value at `pos`; returns true when a value must follow (an open, non-empty container).
    @inline(__always)
    private mutating func value() throws(JSONSyntaxError) -> Bool {
        guard pos < count else {
            throw fail(.unexpectedEnd(inside: depth == 0 ? "value" : (stackIsObject[depth - 1] ? "object" : "array")))
        }
        let c = base[pos]
        switch c {
        case UInt8(ascii: "\""):
            try string()
            return false
        case UInt8(ascii: "{"):
            try open(.object)
            skipWhitespace()
            if pos < count && base[pos] == UInt8(ascii: "}") {
                pos += 1
                close()
                return false
            }
            try key(afterComma: false)
            return true
        case UInt8(ascii: "["):
            try open(.array)
            skipWhitespace()
            if pos < count && base[pos] == UInt8(ascii: "]") {
                pos += 1
                close()
                return false
            }
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
            return false
        case UInt8(ascii: "t"):
            try literal("true", .true)
            return false
        case UInt8(ascii: "f"):
            try literal("false", .false)
            return false
        case UInt8(ascii: "n"):
            try literal("null", .null)
            return false
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw fail(.nonFiniteNumber)
        case UInt8(ascii: "/"):
            throw fail(.comment)
        case UInt8(ascii: "'"):
            throw fail(.singleQuotedString)
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            throw fail(.unexpectedCharacter(c, expected: depth == 0 ? "a value" : "a value (trailing comma?)"))
        default:
            throw fail(.unexpectedCharacter(c, expected: "a value"))
        }
    }

    /// Counts a new array element (object members are counted at their keys).
    @inline(__always)
    private mutating func countChild() {
        if depth > 0 && !stackIsObject[depth - 1] { stackCounts[depth - 1] &+= 1 }
    }

    @inline(__always)
    private mutating func open(_ kind: JSONKind) throws(JSONSyntaxError) {
        if depth >= maxDepth { throw fail(.tooDeep(limit: maxDepth)) }
        countChild()
        stackNodes[depth] = nodeCount
        stackCounts[depth] = 0
        stackIsObject[depth] = kind == .object
        stackFlags[depth] = 0
        depth &+= 1
        append(JSONNode(start: UInt32(pos), end: 0, next: 0, count: 0, kind: kind, flags: 0))
        pos += 1
    }

    @inline(__always)
    private mutating func close() {
        depth &-= 1
        let index = stackNodes[depth]
        nodes[index].end = UInt32(pos)
        nodes[index].next = UInt32(nodeCount)
        nodes[index].count = stackCounts[depth]
        let flags = stackFlags[depth]
        nodes[index].flags = flags
        if flags & JSONNode.Flags.itemsBelow != 0 && depth > 0 { stackFlags[depth &- 1] |= JSONNode.Flags.itemsBelow }
    }

    /// Parses `"key" :` inside an object (the key is recorded as a string node).
    @inline(__always)
    private mutating func key(afterComma: Bool) throws(JSONSyntaxError) {
        guard pos < count else { throw fail(.unexpectedEnd(inside: "object")) }
        let c = base[pos]
        if c != UInt8(ascii: "\"") {
            if c == UInt8(ascii: "'") { throw fail(.singleQuotedString) }
            if c == UInt8(ascii: "/") { throw fail(.comment) }
            throw fail(.unexpectedCharacter(c, expected: afterComma && c == UInt8(ascii: "}") ? "a key (trailing comma?)" : "a string key"))
        }
        stackCounts[depth - 1] &+= 1
        let keyStart = pos
        try scanString()
        markSpecialKey(start: keyStart)
        skipWhitespace()
        guard pos < count else { throw fail(.unexpectedEnd(inside: "object")) }
        if base[pos] != UInt8(ascii: ":") { throw fail(.unexpectedCharacter(base[pos], expected: "':'")) }
        pos += 1
    }

    /// Flags the open object when the key just scanned is `@type`, `@class`, or escaped.
    @inline(__always)
    private mutating func markSpecialKey(start: Int) {
        let length = pos &- start
        let key = nodes[nodeCount &- 1]
        if key.flags & JSONNode.Flags.escaped != 0 {
            stackFlags[depth &- 1] |= JSONNode.Flags.escapedKey | JSONNode.Flags.itemsBelow
            return
        }
        guard (length == 7 || length == 8) && base[start &+ 1] == UInt8(ascii: "@") else { return }
        let s = start &+ 2
        if length == 7 && base[s] == UInt8(ascii: "t") && base[s &+ 1] == UInt8(ascii: "y") && base[s &+ 2] == UInt8(ascii: "p")
            && base[s &+ 3] == UInt8(ascii: "e") {
            stackFlags[depth &- 1] |= JSONNode.Flags.typeKey | JSONNode.Flags.itemsBelow
        } else if length == 8 && base[s] == UInt8(ascii: "c") && base[s &+ 1] == UInt8(ascii: "l") && base[s &+ 2] == UInt8(ascii: "a")
            && base[s &+ 3] == UInt8(ascii: "s") && base[s &+ 4] == UInt8(ascii: "s") {
            stackFlags[depth &- 1] |= JSONNode.Flags.classKey
        }
    }

    @inline(__always)
    private mutating func string() throws(JSONSyntaxError) {
        countChild()
        try scanString()
    }

    /// A mask with the high bit set in the lowest byte that is '"', '\\', a control character or non-ASCII
    /// (higher bits may be spurious); zero when none of the 8 bytes is.
    @inline(__always)
    private static func attentionMask(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let q = w ^ (ones &* 0x22)
        let b = w ^ (ones &* 0x5C)
        let hasQuote = (q &- ones) & ~q
        let hasBackslash = (b &- ones) & ~b
        let hasControl = (w &- ones &* 0x20) & ~w
        return ((hasQuote | hasBackslash | hasControl) & highs) | (w & highs)
    }

    @inline(__always)
    private mutating func scanString() throws(JSONSyntaxError) {
        let start = pos
        // The cursor lives in a local while scanning (the builder's fields would be stored back on every step).
        var p = pos &+ 1
        var flags: UInt8 = 0
        let raw = UnsafeRawPointer(base)
        let count = self.count
        while true {
            // Skip 8 plain bytes at a time, then jump straight to the first byte that needs a look.
            while p &+ 8 <= count {
                let mask = Self.attentionMask(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: p, as: UInt64.self)))
                if mask == 0 {
                    p &+= 8
                } else {
                    p &+= mask.trailingZeroBitCount >> 3
                    break
                }
            }
            guard p < count else {
                pos = p
                throw fail(.unterminatedString, at: start)
            }
            let c = base[p]
            if c == UInt8(ascii: "\"") {
                p &+= 1
                break
            } else if c == UInt8(ascii: "\\") {
                flags |= JSONNode.Flags.escaped
                pos = p
                try escape()
                p = pos
            } else if c < 0x20 {
                pos = p
                throw fail(.controlCharacterInString(c))
            } else if c >= 0x80 {
                pos = p
                try utf8Sequence(c)
                p = pos
            } else {
                p &+= 1
            }
        }
        pos = p
        append(JSONNode(start: UInt32(start), end: UInt32(p), next: UInt32(nodeCount &+ 1), count: 0, kind: .string, flags: flags))
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

    private mutating func escape() throws(JSONSyntaxError) {
        let at = pos
        guard pos + 1 < count else { throw fail(.unterminatedString) }
        switch base[pos + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            pos += 2
        case UInt8(ascii: "u"):
            guard let unit = hexValue(at: pos + 2) else { throw fail(.invalidEscape, at: at) }
            pos += 6
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard pos + 1 < count, base[pos] == UInt8(ascii: "\\"), base[pos + 1] == UInt8(ascii: "u"),
                    let low = hexValue(at: pos + 2), low >= 0xDC00 && low <= 0xDFFF
                else { throw fail(.loneSurrogate, at: at) }
                pos += 6
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw fail(.loneSurrogate, at: at)
            }
        default:
            throw fail(.invalidEscape, at: at)
        }
    }

    @inline(__always)
    private func isContinuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
        offset < count && base[offset] >= low && base[offset] <= high
    }

    private mutating func utf8Sequence(_ lead: UInt8) throws(JSONSyntaxError) {
        let ok: Bool
        let length: Int
        switch lead {
        case 0xC2...0xDF:
            length = 2
            ok = isContinuation(pos + 1)
        case 0xE0:
            length = 3
            ok = isContinuation(pos + 1, 0xA0, 0xBF) && isContinuation(pos + 2)
        case 0xED:
            length = 3
            ok = isContinuation(pos + 1, 0x80, 0x9F) && isContinuation(pos + 2)
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
            ok = isContinuation(pos + 1) && isContinuation(pos + 2)
        case 0xF0:
            length = 4
            ok = isContinuation(pos + 1, 0x90, 0xBF) && isContinuation(pos + 2) && isContinuation(pos + 3)
        case 0xF1...0xF3:
            length = 4
            ok = isContinuation(pos + 1) && isContinuation(pos + 2) && isContinuation(pos + 3)
        case 0xF4:
            length = 4
            ok = isContinuation(pos + 1, 0x80, 0x8F) && isContinuation(pos + 2) && isContinuation(pos + 3)
        default:
            length = 1
            ok = false
        }
        if !ok { throw fail(.invalidUTF8) }
        pos += length
    }

    @inline(__always)
    private func isDigit(_ offset: Int) -> Bool {
        offset < count && base[offset] >= UInt8(ascii: "0") && base[offset] <= UInt8(ascii: "9")
    }

    private mutating func number() throws(JSONSyntaxError) {
        countChild()
        let start = pos
        var flags: UInt8 = 0
        if base[pos] == UInt8(ascii: "-") {
            pos += 1
            if pos < count && (base[pos] == UInt8(ascii: "I") || base[pos] == UInt8(ascii: "N")) {
                throw fail(.nonFiniteNumber, at: start)
            }
        }
        guard isDigit(pos) else { throw fail(.invalidNumber("expected a digit"), at: pos) }
        if base[pos] == UInt8(ascii: "0") {
            pos += 1
            if isDigit(pos) { throw fail(.leadingZero, at: start) }
        } else {
            while isDigit(pos) { pos += 1 }
        }
        if pos < count && base[pos] == UInt8(ascii: ".") {
            pos += 1
            flags = JSONNode.Flags.fractional
            guard isDigit(pos) else { throw fail(.invalidNumber("expected a digit after '.'")) }
            while isDigit(pos) { pos += 1 }
        }
        if pos < count && (base[pos] == UInt8(ascii: "e") || base[pos] == UInt8(ascii: "E")) {
            pos += 1
            flags = JSONNode.Flags.fractional
            if pos < count && (base[pos] == UInt8(ascii: "+") || base[pos] == UInt8(ascii: "-")) { pos += 1 }
            guard isDigit(pos) else { throw fail(.invalidNumber("expected a digit in the exponent")) }
            while isDigit(pos) { pos += 1 }
        }
        append(JSONNode(start: UInt32(start), end: UInt32(pos), next: UInt32(nodeCount &+ 1), count: 0, kind: .number, flags: flags))
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONKind) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        guard pos + length <= count else { throw fail(.invalidLiteral) }
        let expected = word.utf8Start
        for i in 0..<length where base[pos + i] != expected[i] {
            throw fail(.invalidLiteral)
        }
        countChild()
        append(JSONNode(start: UInt32(pos), end: UInt32(pos + length), next: UInt32(nodeCount &+ 1), count: 0, kind: kind, flags: 0))
        pos += length
    }
}
