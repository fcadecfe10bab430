import Foundation
import Replay
import Testing

/// `--start` and `--stop` as written on the command line; a wrong one is refused saying what was expected.
@Suite struct ReplayRangeTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func startsAndStops() throws {
        #expect(try ReplayRange.parseStart("beginning", now: Self.now) == .beginning)
        #expect(try ReplayRange.parseStart("offset:120", now: Self.now) == .offset(120))
        #expect(try ReplayRange.parseStart("0:120,3:4500", now: Self.now) == .offsets([0: 120, 3: 4500]))
        #expect(
            try ReplayRange.parseStart("time:2026-11-20T00:00:00Z", now: Self.now) == .time(1_795_132_800_000))
        #expect(
            try ReplayRange.parseStart("time:2026-11-20T00:00:00.250Z", now: Self.now) == .time(1_795_132_800_250))
        #expect(try ReplayRange.parseStart("ago:1h30m", now: Self.now) == .time((1_800_000_000 - 5_400) * 1000))
        #expect(try ReplayRange.parseStart("ago:2d", now: Self.now) == .time((1_800_000_000 - 172_800) * 1000))
        #expect(try ReplayRange.parseStop("end", now: Self.now) == .end)
        #expect(try ReplayRange.parseStop("now", now: Self.now) == .time(1_800_000_000_000))
        #expect(try ReplayRange.parseStop("offset:7", now: Self.now) == .offset(7))
    }

    @Test func wrongTextIsRefusedSayingWhatWasExpected() {
        let starts: [(String, String)] = [
            ("yesterday", "is not beginning, offset:N, P:N[,P:N], time:ISO8601 or ago:DURATION"),
            ("offset:-1", "is not an offset (a whole number ≥ 0)"),
            ("0:5,x:7", "'x:7' in '0:5,x:7' is not PARTITION:OFFSET"),
            ("time:20 Nov", "is not an ISO 8601 time"),
            ("ago:5w", "has an unknown unit 'w' (use s, m, h, d)"),
            ("ago:15", "is not a duration such as 15m or 1h30m"),
        ]
        for (text, why) in starts {
            #expect(throws: ReplayRange.ParseError.self, "\(text)") { try ReplayRange.parseStart(text, now: Self.now) }
            do {
                _ = try ReplayRange.parseStart(text, now: Self.now)
            } catch {
                #expect(error.description.contains(why), "\(text): \(error)")
            }
        }
        #expect(throws: ReplayRange.ParseError.self) { try ReplayRange.parseStop("beginning", now: Self.now) }
    }

    /// A stop at or before its start (both offsets, or both times) is an empty range, refused; mixed kinds are
    /// checked per partition when the replay starts.
    @Test func anEmptyRangeIsRefused() throws {
        do {
            _ = try ReplayRange.checked(start: .offset(5), stop: .offset(2))
            Issue.record("offset:5 to offset:2 was taken")
        } catch {
            #expect(error.description.contains("is not after --start offset:5: the range is empty"))
        }
        #expect(throws: ReplayRange.ParseError.self) { try ReplayRange.checked(start: .time(10), stop: .time(10)) }
        #expect(
            try ReplayRange.checked(start: .offset(2), stop: .offset(5))
                == ReplayRange(start: .offset(2), stop: .offset(5)))
        #expect(try ReplayRange.checked(start: .offset(9), stop: .time(1)).stop == .time(1))
    }
}
