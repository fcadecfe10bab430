/// An instant read from an RFC 3339 / ISO 8601 date-time (`2024-01-01T10:00:00+05:00`, `2024-01-01T05:00:00.250Z`),
/// so values written with different offsets compare by when they happened, not by their text.
public struct RFC3339Instant: Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z, and the fraction in nanoseconds.
    public let seconds: Int64
    public let nanoseconds: Int32

    /// Parses `YYYY-MM-DD[T ]hh:mm:ss[.fraction](Z|±hh:mm)`; nil for anything else (including out-of-range fields).
    public init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20,
            b[13] == 0x3A, b[16] == 0x3A
        else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var n = 0
            for i in from..<from + count {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var i = 19
        var nanos = 0
        if b[i] == 0x2E {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                if digits < 9 { nanos = nanos * 10 + Int(b[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in min(digits, 9)..<9 { nanos *= 10 }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == 0x5A || b[i] == 0x7A {
            i += 1
        } else if b[i] == 0x2B || b[i] == 0x2D, i + 6 == b.count, b[i + 3] == 0x3A, let oh = number(i + 1, 2),
            let om = number(i + 4, 2), oh < 24, om < 60
        {
            offset = (oh * 60 + om) * 60 * (b[i] == 0x2D ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm); every field is bounded above, so nothing overflows.
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        seconds = Int64(days * 86_400 + hour * 3_600 + minute * 60 + second - offset)
        nanoseconds = Int32(nanos)
    }

    public static func < (a: RFC3339Instant, b: RFC3339Instant) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }
}
