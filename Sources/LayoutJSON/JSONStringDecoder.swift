/// Turns the escaped body of a validated JSON string into UTF-8 bytes.
enum JSONStringDecoder {
    static func unescape(_ inner: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(inner.count)
        var i = inner.startIndex
        let end = inner.endIndex
        while i < end {
            let c = inner[i]
            guard c == UInt8(ascii: "\\"), i + 1 < end else {
                out.append(c)
                i += 1
                continue
            }
            let e = inner[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(inner, i)
                i += 4
                if scalar >= 0xD800 && scalar <= 0xDBFF && i + 6 <= end {
                    let low = hex4(inner, i + 2)
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                appendUTF8(UInt32(scalar), to: &out)
            default: out.append(e)  // " \ /
            }
        }
        return out
    }

    private static func hex4(_ s: ArraySlice<UInt8>, _ at: Int) -> Int {
        var v = 0
        for k in 0..<4 {
            let c = s[at + k]
            let d: Int
            if c >= 48 && c <= 57 {
                d = Int(c) - 48
            } else if c >= 97 && c <= 102 {
                d = Int(c) - 87
            } else {
                d = Int(c) - 55
            }
            v = v << 4 | d
        }
        return v
    }

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
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
