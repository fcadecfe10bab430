import Delivery
import Kafka
import Testing

@Suite struct OffsetTrackerTests {
    private static let start = ContinuousClock.now
    /// `seconds` after the test's start on the tracker's clock.
    private func at(_ seconds: Double) -> ContinuousClock.Instant { Self.start + .seconds(seconds) }

    @Test func commitsOnlyTheAcknowledgedPrefix() {
        var t = OffsetTracker()
        for o in 10...14 { t.begin(Partition("a", 0).at(Int64(o))) }
        #expect(t.committable(now: at(0)).isEmpty)
        t.complete(Partition("a", 0).at(12), now: at(0))
        t.complete(Partition("a", 0).at(11), now: at(0))
        #expect(t.committable(now: at(0)).isEmpty)  // 10 still pending
        t.complete(Partition("a", 0).at(10), now: at(0))
        #expect(t.committable(now: at(0)).map(\.offset) == [13])  // 10, 11, 12 done → next to read is 13
        t.confirmed(Partition("a", 0).at(13), now: at(0))
        #expect(t.committable(now: at(0)).isEmpty)
        #expect(t.nextOffset(Partition("a", 0)) == 13)  // still known after the commit
        #expect(t.committedOffset(Partition("a", 0)) == 13)
        #expect(t.nextOffset(Partition("a", 9)) == nil)
        #expect(t.inProgress == 2)
        t.complete(Partition("a", 0).at(14), now: at(0))
        #expect(t.committable(now: at(0)).isEmpty)
        t.complete(Partition("a", 0).at(13), now: at(0))
        #expect(t.committable(now: at(0)).map(\.offset) == [15])
        #expect(t.inProgress == 0)
    }

    /// A commit counts only when confirmed; one sent and unanswered is not sent twice; one that failed is sent again
    /// after a doubling backoff, and the time the commit has trailed keeps growing until it is confirmed.
    @Test func failedCommitsAreSentAgainUntilConfirmed() {
        var t = OffsetTracker()
        for o in 0..<50 { t.begin(Partition("a", 0).at(Int64(o))) }
        for o in 0..<50 { t.complete(Partition("a", 0).at(Int64(o)), now: at(1)) }
        let first = t.committable(now: at(1))
        #expect(first.map(\.offset) == [50])
        t.requested(first, now: at(1))
        #expect(t.committable(now: at(1.5)).isEmpty, "a commit awaiting its answer is not sent again")
        #expect(t.committable(now: at(1.5), all: true).map(\.offset) == [50], "but a last commit takes it")
        #expect(t.committable(now: at(40)).map(\.offset) == [50], "an answer lost for 30 s is given up on")
        let wait1 = t.failed(Partition("a", 0).at(50), now: at(2))
        #expect(wait1 == .milliseconds(500))
        #expect(t.committable(now: at(2.4)).isEmpty, "backoff running")
        #expect(t.committable(now: at(2.5)).map(\.offset) == [50])
        let wait2 = t.failed(Partition("a", 0).at(50), now: at(3))
        #expect(wait2 == .seconds(1))
        for _ in 0..<20 { _ = t.failed(Partition("a", 0).at(50), now: at(3)) }
        #expect(OffsetTracker.retryBackoff.max == t.failed(Partition("a", 0).at(50), now: at(3)))
        let behind = t.uncommitted(Partition("a", 0), now: at(61))
        #expect(behind.messages == 50 && abs(behind.seconds - 60) < 1e-9)
        t.confirmed(Partition("a", 0).at(50), now: at(62))
        #expect(t.committable(now: at(100)).isEmpty)
        #expect(t.uncommitted(Partition("a", 0), now: at(100)) == (0, 0))
        #expect(t.committedOffset(Partition("a", 0)) == 50)
    }

    /// A partition revoked with an unconfirmed commit resumes at its done offset when it comes back (so nothing is
    /// read again) and is committed from there; a partition whose commit was confirmed resumes at the group's offset.
    @Test func revokedUnconfirmedPartitionsResumeWhereTheyWere() {
        var t = OffsetTracker()
        for o in 0..<50 { t.begin(Partition("a", 0).at(Int64(o))) }
        for o in 0..<50 { t.complete(Partition("a", 0).at(Int64(o)), now: at(0)) }
        t.confirmed(Partition("a", 0).at(40), now: at(0))
        t.begin(Partition("a", 1).at(7))
        t.complete(Partition("a", 1).at(7), now: at(0))
        t.confirmed(Partition("a", 1).at(8), now: at(0))
        _ = t.failed(Partition("a", 0).at(50), now: at(1))
        #expect(t.remove(Partition("a", 0), now: at(2)) == 0)
        #expect(t.remove(Partition("a", 1), now: at(2)) == 0)
        #expect(t.unconfirmedCount == 1)
        #expect(t.committable(now: at(5)).isEmpty, "a revoked partition is not committed")
        #expect(t.resumeOffset(Partition("a", 0), now: at(3)) == 50)
        #expect(t.resumeOffset(Partition("a", 1), now: at(3)) == nil)
        #expect(t.resumeOffset(Partition("a", 0), now: at(2 + 601)) == nil, "kept ten minutes")
        t.resumed(Partition("a", 0).at(50), now: at(3))
        #expect(t.unconfirmedCount == 0)
        #expect(t.committable(now: at(3)).map(\.offset) == [50])
        t.begin(Partition("a", 0).at(50))
        t.complete(Partition("a", 0).at(50), now: at(4))
        #expect(t.committable(now: at(4)).map(\.offset) == [51])
    }

    @Test func partitionsAreIndependentAndRemovable() {
        var t = OffsetTracker()
        t.begin(Partition("a", 0).at(0))
        t.begin(Partition("a", 1).at(5))
        t.begin(Partition("a", 1).at(6))
        t.complete(Partition("a", 1).at(5), now: at(0))
        #expect(t.committable(now: at(0)).map { "\($0.partition.number):\($0.offset)" } == ["1:6"])
        #expect(t.remove(Partition("a", 1), now: at(0)) == 1)
        #expect(t.committable(now: at(0)).isEmpty)
        #expect(t.inProgress(Partition("a", 0)) == 1)
    }

    @Test func longRunsCompact() {
        var t = OffsetTracker()
        for o in 0..<10_000 { t.begin(Partition("a", 0).at(Int64(o))) }
        for o in 0..<10_000 { t.complete(Partition("a", 0).at(Int64(o)), now: at(0)) }
        #expect(t.committable(now: at(0)).map(\.offset) == [10_000])
        #expect(t.inProgress == 0)
    }
}
