import Testing

@testable import Ops

/// A retry's wait: doubling up to its most, beating while it waits, ending at once when asked to stop.
@Suite struct BackoffTests {
    @Test func itDoublesUpToItsMostAndBeatsWhileItWaits() {
        var backoff = Backoff(first: .milliseconds(60), most: .milliseconds(150))
        var beats = 0
        let start = ContinuousClock.now
        backoff.pause(beat: { beats += 1 }, stop: { false })
        #expect(ContinuousClock.now - start >= .milliseconds(60))
        #expect(beats >= 2, "a beat every 50 ms slice")
        #expect(backoff.next == .milliseconds(120))
        backoff.pause(beat: {}, stop: { false })
        #expect(backoff.next == .milliseconds(150))
    }

    @Test func askedToStopItReturnsAtOnce() {
        var backoff = Backoff(first: .seconds(30), most: .seconds(30))
        var beats = 0
        let start = ContinuousClock.now
        backoff.pause(beat: { beats += 1 }, stop: { true })
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(beats == 0)
    }
}
