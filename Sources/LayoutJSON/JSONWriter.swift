/// Appends compact JSON to a byte buffer, placing commas and colons itself.
///
/// Long: the record writer's hot path (every byte of every record goes through it): one non-copyable buffer with
/// its escaping, number formatting and container bookkeeping inlined together, measured by `make bench`.
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Whether the innermost open container already has an element (the next one needs a comma).
    private var needsComma = false
    /// `needsComma` of the enclosing containers, innermost in bit 0; levels beyond 64 spill into `deepLevels`.
    private var levels: UInt64 = 0
    private var depth = 0
    private var deepLevels: [Bool] = []
    private var afterKey = false
    /// Whether `base` is the writer's own allocation (else it is borrowed storage, see `bytes(capacity:_:)`).
    private var ownsBuffer = true

    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// A writer into `buffer`, which it does not own; it moves to a buffer of its own if it needs more room.
    private init(borrowing buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
        ownsBuffer = false
    }

    deinit { if ownsBuffer { base.deallocate() } }

    /// The JSON written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Bytes written so far: where the next byte goes.
    public var position: Int { count }

    /// Writes the comma the next key or value needs (if any) and returns where that key or value starts, so a
    /// caller can note where each part of what it writes sits.
    public mutating func startValue() -> Int {
        separator()
        afterKey = true
        return count
    }

    /// What `body` writes, as an array: written straight into the array's storage when `capacity` bytes suffice,
    /// else copied once from the writer's own grown buffer. Arrays left with more than a quarter unused (plus 4 KiB)
    /// are copied to their size, so a caller holding many results holds little slack.
    public static func bytes(capacity: Int, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var grown: [UInt8]?
        let direct = [UInt8](unsafeUninitializedCapacity: max(capacity, 16)) { buffer, initialized in
            var w = JSONWriter(borrowing: buffer)
            body(&w)
            if w.ownsBuffer {
                grown = w.bytes
                initialized = 0
            } else {
                initialized = w.count
            }
        }
        if let grown { return grown }
        guard direct.capacity - direct.count > direct.count / 4 + 4096 else { return direct }
        return direct.withUnsafeBufferPointer { written in
            [UInt8](unsafeUninitializedCapacity: written.count) { buffer, initialized in
                if let source = written.baseAddress, !written.isEmpty {
                    buffer.baseAddress!.update(from: source, count: written.count)
                }
                initialized = written.count
            }
        }
    }

    /// Makes room for `n` more bytes.
    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if count &+ n > capacity { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        if ownsBuffer { base.deallocate() }
        ownsBuffer = true
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let n = bytes.count
        reserve(n)
        Self.copyShort(source, to: base + count, count: n)
        count &+= n
    }

    /// Copies `n` bytes; up to 16 (most keys, ids and names) without a call to memmove, as two overlapping moves
    /// of 8, 4 or 2 bytes that read and write nothing outside the `n` bytes.
    @inline(__always)
    private static func copyShort(_ source: UnsafePointer<UInt8>, to out: UnsafeMutablePointer<UInt8>, count n: Int) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(out)
        if n > 16 {
            out.update(from: source, count: n)
        } else if n >= 8 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self), toByteOffset: n &- 4, as: UInt32.self)
        } else if n >= 2 {
            to.storeBytes(of: from.loadUnaligned(as: UInt16.self), as: UInt16.self)
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: n &- 2, as: UInt16.self), toByteOffset: n &- 2, as: UInt16.self)
        } else if n == 1 {
            out[0] = source[0]
        }
    }

    @inline(__always)
    private mutating func separator() {
        if afterKey {
            afterKey = false
        } else if needsComma {
            put(UInt8(ascii: ","))
        } else if depth > 0 {
            needsComma = true
        }
    }

    @inline(__always)
    private mutating func open(_ bracket: UInt8) {
        separator()
        put(bracket)
        if depth >= 64 { deepLevels.append(levels >> 63 != 0) }
        levels = levels << 1 | (needsComma ? 1 : 0)
        depth &+= 1
        needsComma = false
    }

    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        put(bracket)
        needsComma = levels & 1 != 0
        levels >>= 1
        depth &-= 1
        if depth >= 64, deepLevels.removeLast() { levels |= 1 << 63 }
    }

    /// Opens an object.
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Closes the innermost object.
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Opens an array.
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Closes the innermost array.
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes an object key; the next value written belongs to it.
    public mutating func key(_ name: StaticString) {
        separator()
        let length = name.utf8CodeUnitCount
        reserve(length &+ 3)
        base[count] = UInt8(ascii: "\"")
        Self.copyShort(name.utf8Start, to: base + (count &+ 1), count: length)
        base[count &+ 1 &+ length] = UInt8(ascii: "\"")
        base[count &+ 2 &+ length] = UInt8(ascii: ":")
        count &+= length &+ 3
        afterKey = true
    }

    /// Writes an object key given at run time (escaped as needed). Literal keys use `key(_: StaticString)`, which
    /// copies them without an escaping check; the label keeps literals from picking this overload.
    public mutating func key(text name: String) {
        separator()
        appendEscaped(name)
        put(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes an object key given as an already-escaped JSON string token, quotes included (e.g. copied from a document).
    public mutating func key(raw token: ArraySlice<UInt8>) {
        separator()
        token.withUnsafeBufferPointer { put($0) }
        put(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separator()
        appendEscaped(value)
    }

    /// Writes a string value given as UTF-8 (escaped as needed).
    public mutating func string(utf8 value: ArraySlice<UInt8>) {
        separator()
        put(UInt8(ascii: "\""))
        value.withUnsafeBufferPointer { appendEscapedBody($0) }
        put(UInt8(ascii: "\""))
    }

    /// Opens a string value written in parts (`stringPart`), closed by `endString`.
    public mutating func beginString() {
        separator()
        put(UInt8(ascii: "\""))
    }

    /// Appends `text`, escaped, to the open string.
    public mutating func stringPart(_ text: String) {
        // Native strings lend their bytes in place; only others (e.g. bridged) are copied first.
        if text.utf8.withContiguousStorageIfAvailable({ appendEscapedBody($0) }) == nil {
            var copy = text
            copy.withUTF8 { appendEscapedBody($0) }
        }
    }

    /// Closes a string opened by `beginString`.
    public mutating func endString() { put(UInt8(ascii: "\"")) }

    /// Appends the escaped form of `utf8` (no quotes): plain bytes are checked and copied 8 at a time in one pass,
    /// and the rest from the first byte that needs an escape goes byte by byte.
    private mutating func appendEscapedBody(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress else { return }
        let n = utf8.count
        reserve(n)
        let out = UnsafeMutableRawPointer(base + count)
        let from = UnsafeRawPointer(source)
        var i = 0
        while i &+ 8 <= n {
            let w = from.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if Self.specialBytes(w) != 0 { break }
            out.storeBytes(of: w, toByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        // Fewer than 8 bytes left (no special byte met): they go as one word overlapping the ones already copied,
        // when that word is plain too.
        if i < n && n >= 8 && n &- i < 8 {
            let w = from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            if Self.specialBytes(w) == 0 {
                out.storeBytes(of: w, toByteOffset: n &- 8, as: UInt64.self)
                i = n
            }
        }
        while i < n {
            let c = source[i]
            if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { break }
            out.storeBytes(of: c, toByteOffset: i, as: UInt8.self)
            i &+= 1
        }
        count &+= i
        if i < n { appendEscapedBytes(UnsafeBufferPointer(rebasing: utf8[i...])) }
    }

    /// The high bit of each byte of `w` (little-endian) that is '"', '\\' or a control character (bytes above
    /// the lowest flagged one may be flagged spuriously).
    @inline(__always)
    private static func specialBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let q = w ^ (ones &* 0x22), b = w ^ (ones &* 0x5C)
        // Bytes >= 0x80 are never special; mask them out of the zero-byte tests.
        return (((q &- ones) & ~q) | ((b &- ones) & ~b) | ((w &- ones &* 0x20) & ~w)) & highs & ~w
    }

    /// Appends `utf8` escaped byte by byte.
    private mutating func appendEscapedBytes(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(utf8.count * 6)
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\""): putPair(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): putPair(UInt8(ascii: "\\"))
            case 0x0A: putPair(UInt8(ascii: "n"))
            case 0x0D: putPair(UInt8(ascii: "r"))
            case 0x09: putPair(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                putPair(UInt8(ascii: "u"))
                base[count] = 0x30
                base[count &+ 1] = 0x30
                base[count &+ 2] = hex.utf8Start[Int(b >> 4)]
                base[count &+ 3] = hex.utf8Start[Int(b & 0xF)]
                count &+= 4
            default:
                base[count] = b
                count &+= 1
            }
        }
    }

    /// A backslash and `c`, into room already reserved.
    @inline(__always)
    private mutating func putPair(_ c: UInt8) {
        base[count] = UInt8(ascii: "\\")
        base[count &+ 1] = c
        count &+= 2
    }

    /// Writes a string value, or null when nil.
    public mutating func string(orNull value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes an integer value.
    public mutating func int(_ value: Int) {
        separator()
        reserve(20)
        count &+= Self.writeDecimal(value, to: base + count)
    }

    /// Writes `value` in decimal digits (with a leading '-' when negative) at `out` (room for 20 bytes); returns the length.
    @inline(__always)
    static func writeDecimal(_ value: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = value.magnitude
        var length = value < 0 ? 1 : 0
        var probe = n
        repeat {
            length &+= 1
            probe /= 10
        } while probe > 0
        if value < 0 { out[0] = UInt8(ascii: "-") }
        var i = length
        repeat {
            i &-= 1
            out[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
            n /= 10
        } while n > 0
        return length
    }

    /// Appends `value` in decimal digits (with a leading '-' when negative) to `out`.
    public static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let length = writeDecimal(value, to: digits.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<length]))
        }
    }

    /// Writes a number value from a double (integral values without a fraction).
    public mutating func double(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            int(Int(value))
        } else if value.isFinite {
            separator()
            var text = "\(value)"
            text.withUTF8 { put($0) }
        } else {
            null()
        }
    }

    /// Writes a boolean value.
    public mutating func bool(_ value: Bool) {
        separator()
        if value { put(Self.trueBytes) } else { put(Self.falseBytes) }
    }

    /// Writes null.
    public mutating func null() {
        separator()
        put(Self.nullBytes)
    }

    /// Writes an already-valid JSON value verbatim (e.g. a model copied from the input), as one block copy.
    public mutating func raw(_ json: ArraySlice<UInt8>) {
        separator()
        json.withUnsafeBufferPointer { put($0) }
    }

    /// Writes an already-valid JSON value verbatim.
    public mutating func raw(_ json: [UInt8]) {
        raw(json[...])
    }

    /// Writes value `i` of `doc` verbatim, from the document's bytes (no slice, so no reference taken).
    public mutating func raw(_ i: Int, of doc: JSONDocument) {
        separator()
        put(node: i, of: doc, trimming: 0)
    }

    /// Appends the body of string `i` of `doc` (its bytes between the quotes, escapes kept) to the open string.
    public mutating func stringPart(bodyOf i: Int, in doc: JSONDocument) {
        put(node: i, of: doc, trimming: 1)
    }

    /// Appends node `i`'s bytes from `doc`, less `trim` bytes at each end.
    private mutating func put(node i: Int, of doc: JSONDocument, trimming trim: Int) {
        let range = doc.nodes.withUnsafeBufferPointer { $0[i].range }
        doc.bytes.withUnsafeBufferPointer {
            put(UnsafeBufferPointer(rebasing: $0[(range.lowerBound + trim)..<(range.upperBound - trim)]))
        }
    }

    private static var trueBytes: UnsafeBufferPointer<UInt8> { literal("true") }
    private static var falseBytes: UnsafeBufferPointer<UInt8> { literal("false") }
    private static var nullBytes: UnsafeBufferPointer<UInt8> { literal("null") }

    @inline(__always)
    private static func literal(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    private mutating func appendEscaped(_ value: String) {
        put(UInt8(ascii: "\""))
        stringPart(value)
        put(UInt8(ascii: "\""))
    }
}
