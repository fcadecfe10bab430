import Adaptors
import Testing

/// How rows' values are read for grouping: numbers spelled as JSON spells them, RFC 3339 instants.
@Suite struct RowGrouperValueTests {
    @Test func numbersAreSpelledAsJSONSpellsThem() {
        for good in ["0", "-1", "12.5", "1e3", "-0.5E-2", "5000"] {
            #expect(RowGrouper.spellsJSONNumber(good), "\(good)")
        }
        for bad in ["", "-", "01", "1.", ".5", "0x1A", "inf", "nan", " 5", "5 ", "1e", "+1", "1e+"] {
            #expect(!RowGrouper.spellsJSONNumber(bad), "\(bad)")
        }
    }
}

@Suite struct RFC3339InstantTests {
    @Test func instantsAcrossOffsetsAndFractions() throws {
        let utc = try #require(RFC3339Instant("2024-01-01T05:00:00Z"))
        #expect(RFC3339Instant("2024-01-01T10:00:00+05:00") == utc)
        #expect(RFC3339Instant("2023-12-31T22:00:00-07:00") == utc)
        #expect(utc.seconds == 1_704_085_200)
        #expect(RFC3339Instant("1970-01-01T00:00:00Z")?.seconds == 0)
        #expect(RFC3339Instant("1969-12-31T23:59:59Z")?.seconds == -1)
        #expect(RFC3339Instant("2024-01-01T05:00:00.5Z")?.nanoseconds == 500_000_000)
        #expect(try #require(RFC3339Instant("2024-01-01T05:00:00.000000001Z")) > utc)
        for bad in [
            "2024-01-01", "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00",
            "2024-01-01T00:00:00+5:00",
            "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00Zjunk", "abcd-01-01T00:00:00Z", "",
        ] {
            #expect(RFC3339Instant(bad) == nil, "\(bad)")
        }
    }
}
