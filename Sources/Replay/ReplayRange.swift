public import Foundation

/// Where a replay starts and stops, as written on the command line.
public struct ReplayRange: Sendable, Equatable {
    /// A start position.
    public enum Start: Sendable, Equatable {
        case beginning
        /// The same offset on every partition.
        case offset(Int64)
        /// Per-partition offsets (`P:N,P:N`); partitions not named start at the beginning.
        case offsets([Int32: Int64])
        /// The first record at or after this time (milliseconds since the epoch).
        case time(Int64)
    }

    /// A stop position (exclusive): the replay reads offsets below it.
    public enum Stop: Sendable, Equatable {
        /// The end offsets read when the replay starts.
        case end
        /// Stop before this offset on every partition.
        case offset(Int64)
        /// Stop before the first record at or after this time.
        case time(Int64)
    }

    public var start: Start
    public var stop: Stop

    public init(start: Start, stop: Stop) {
        self.start = start
        self.stop = stop
    }

    /// The range, or why it holds nothing on any partition (a stop before its start, both offsets or both times).
    public static func checked(start: Start, stop: Stop) throws(ParseError) -> ReplayRange {
        switch (start, stop) {
        case (.offset(let a), .offset(let b)) where b <= a:
            throw ParseError(
                description:
                    "--stop offset:\(b) is not after --start offset:\(a): the range is empty (the stop is exclusive)")
        case (.time(let a), .time(let b)) where b <= a:
            throw ParseError(description: "--stop is not later than --start: the range is empty")
        default: return ReplayRange(start: start, stop: stop)
        }
    }

    /// Why a start or stop text was not understood.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `beginning | offset:N | P:N,P:N... | time:ISO8601 | ago:DURATION` (`now` gives the current time).
    public static func parseStart(_ text: String, now: Date) throws(ParseError) -> Start {
        if text == "beginning" { return .beginning }
        if text.hasPrefix("offset:") { return .offset(try offset(String(text.dropFirst(7)), text)) }
        if text.hasPrefix("time:") { return .time(try time(String(text.dropFirst(5)), text)) }
        if text.hasPrefix("ago:") {
            return .time(Int64((now.timeIntervalSince1970 - (try duration(String(text.dropFirst(4)), text))) * 1000))
        }
        if text.contains(":") {
            var map: [Int32: Int64] = [:]
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: ":")
                guard parts.count == 2, let p = Int32(parts[0]), p >= 0 else {
                    throw ParseError(description: "'\(pair)' in '\(text)' is not PARTITION:OFFSET")
                }
                map[p] = try offset(String(parts[1]), text)
            }
            return .offsets(map)
        }
        throw ParseError(
            description: "start '\(text)' is not beginning, offset:N, P:N[,P:N], time:ISO8601 or ago:DURATION")
    }

    /// Parses `end | offset:N | time:ISO8601 | now`.
    public static func parseStop(_ text: String, now: Date) throws(ParseError) -> Stop {
        if text == "end" { return .end }
        if text == "now" { return .time(Int64(now.timeIntervalSince1970 * 1000)) }
        if text.hasPrefix("offset:") { return .offset(try offset(String(text.dropFirst(7)), text)) }
        if text.hasPrefix("time:") { return .time(try time(String(text.dropFirst(5)), text)) }
        throw ParseError(description: "stop '\(text)' is not end, offset:N, time:ISO8601 or now")
    }

    static func offset(_ s: String, _ whole: String) throws(ParseError) -> Int64 {
        guard let n = Int64(s), n >= 0 else {
            throw ParseError(description: "'\(s)' in '\(whole)' is not an offset (a whole number ≥ 0)")
        }
        return n
    }

    static func time(_ s: String, _ whole: String) throws(ParseError) -> Int64 {
        let formats: [ISO8601DateFormatter.Options] = [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime],
        ]
        for options in formats {
            let f = ISO8601DateFormatter()
            f.formatOptions = options
            if let d = f.date(from: s) { return Int64((d.timeIntervalSince1970 * 1000).rounded()) }
        }
        throw ParseError(description: "'\(s)' in '\(whole)' is not an ISO 8601 time such as 2026-11-21T10:00:00Z")
    }

    /// `90s`, `15m`, `2h`, `1d`, or combinations such as `1h30m`.
    static func duration(_ s: String, _ whole: String) throws(ParseError) -> TimeInterval {
        var total: TimeInterval = 0
        var digits = ""
        for c in s {
            if c.isNumber {
                digits.append(c)
                continue
            }
            guard let n = Double(digits) else {
                throw ParseError(description: "'\(s)' in '\(whole)' is not a duration such as 15m or 1h30m")
            }
            switch c {
            case "s": total += n
            case "m": total += n * 60
            case "h": total += n * 3600
            case "d": total += n * 86400
            default: throw ParseError(description: "'\(s)' in '\(whole)' has an unknown unit '\(c)' (use s, m, h, d)")
            }
            digits = ""
        }
        guard digits.isEmpty, total > 0 else {
            throw ParseError(description: "'\(s)' in '\(whole)' is not a duration such as 15m or 1h30m")
        }
        return total
    }
}
