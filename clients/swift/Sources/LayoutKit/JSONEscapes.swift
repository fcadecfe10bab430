/// JSON string escapes decoded into UTF-8: the one decoder the server's reader (`LayoutJSON`) and the kit's
/// change-set applier share.
public enum JSONEscapes {
    /// The UTF-8 bytes of a JSON string's body (between its quotes) with its escapes decoded; a lone surrogate
    /// becomes U+FFFD. Nil when an escape is malformed (a reader that validated the string never sees nil).
    public static func unescape(_ body: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var i = body.startIndex
        let end = body.endIndex
        while i < end {
            let c = body[i]
            guard c == backslash else {
                out.append(c)
                i += 1
                continue
            }
            guard i + 1 < end else { return nil }
            let e = body[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), backslash, UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4(body, i) else { return nil }
                i += 4
                if (0xD800..<0xDC00).contains(code), i + 6 <= end, body[i] == backslash,
                    body[i + 1] == UInt8(ascii: "u"),
                    let low = hex4(body, i + 2), (0xDC00..<0xE000).contains(low)
                {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                appendUTF8(Unicode.Scalar(code) == nil ? 0xFFFD : code, to: &out)
            default: return nil
            }
        }
        return out
    }

    private static let backslash = UInt8(ascii: "\\")

    /// The four hex digits at `at`, or nil.
    private static func hex4(_ s: ArraySlice<UInt8>, _ at: Int) -> UInt32? {
        guard at + 4 <= s.endIndex else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = s[at + k]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// Appends `scalar` (a valid Unicode scalar value) as UTF-8.
    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80: out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
