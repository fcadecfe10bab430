/// Appends compact JSON to a byte buffer, placing commas and colons itself.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8]
    private var hasElement: [Bool] = []
    private var afterKey = false

    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
        hasElement.reserveCapacity(16)
    }

    @inline(__always)
    private mutating func separator() {
        if afterKey {
            afterKey = false
            return
        }
        if let last = hasElement.last {
            if last { bytes.append(UInt8(ascii: ",")) } else { hasElement[hasElement.count - 1] = true }
        }
    }

    /// Opens an object.
    public mutating func beginObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        hasElement.append(false)
    }

    /// Closes the innermost object.
    public mutating func endObject() {
        hasElement.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Opens an array.
    public mutating func beginArray() {
        separator()
        bytes.append(UInt8(ascii: "["))
        hasElement.append(false)
    }

    /// Closes the innermost array.
    public mutating func endArray() {
        hasElement.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes an object key; the next value written belongs to it.
    public mutating func key(_ name: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes an object key given at run time (escaped as needed). Literal keys use `key(_: StaticString)`, which
    /// copies them without an escaping check; the label keeps literals from picking this overload.
    public mutating func key(text name: String) {
        separator()
        appendEscaped(name)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes an object key given as an already-escaped JSON string token, quotes included (e.g. copied from a document).
    public mutating func key(raw token: ArraySlice<UInt8>) {
        separator()
        token.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separator()
        appendEscaped(value)
    }

    /// Writes a string value whose escaped body `body` appends (already-escaped JSON string contents).
    public mutating func stringParts(_ body: (inout [UInt8]) -> Void) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        body(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the escaped body of `value` (no quotes) to `out`.
    public static func appendEscapedBody(_ value: String, to out: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            if !needsEscaping(utf8) {
                out.append(contentsOf: utf8)
                return
            }
            for b in utf8 {
                switch b {
                case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0..<0x20:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
                default: out.append(b)
                }
            }
        }
    }

    /// Whether any byte is '"', '\\' or a control character (8 bytes at a time).
    @inline(__always)
    static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        while i + 8 <= utf8.count {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let q = w ^ (ones &* 0x22), b = w ^ (ones &* 0x5C)
            // Bytes >= 0x80 are never special; mask them out of the zero-byte tests.
            let special = (((q &- ones) & ~q) | ((b &- ones) & ~b) | ((w &- ones &* 0x20) & ~w)) & highs & ~w
            if special != 0 { return true }
            i += 8
        }
        while i < utf8.count {
            let c = utf8[i]
            if c < 0x20 || c == 0x22 || c == 0x5C { return true }
            i += 1
        }
        return false
    }

    /// Writes a string value, or null when nil.
    public mutating func string(orNull value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes an integer value.
    public mutating func int(_ value: Int) {
        separator()
        Self.appendDecimal(value, to: &bytes)
    }

    /// Appends `value` in decimal digits (with a leading '-' when negative) to `out`.
    public static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = value.magnitude
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while n > 0 {
                d[count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            while count > 0 {
                count -= 1
                out.append(d[count])
            }
        }
    }

    /// Writes a number value from a double (integral values without a fraction).
    public mutating func double(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            int(Int(value))
        } else if value.isFinite {
            separator()
            bytes.append(contentsOf: "\(value)".utf8)
        } else {
            null()
        }
    }

    /// Writes a boolean value.
    public mutating func bool(_ value: Bool) {
        separator()
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
    }

    /// Writes null.
    public mutating func null() {
        separator()
        bytes.append(contentsOf: Self.nullBytes)
    }

    /// Writes an already-valid JSON value verbatim (e.g. a model copied from the input), as one block copy.
    public mutating func raw(_ json: ArraySlice<UInt8>) {
        separator()
        json.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
    }

    /// Writes an already-valid JSON value verbatim.
    public mutating func raw(_ json: [UInt8]) {
        raw(json[...])
    }

    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)
    private static let nullBytes: [UInt8] = Array("null".utf8)

    private mutating func appendEscaped(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        Self.appendEscapedBody(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }
}
