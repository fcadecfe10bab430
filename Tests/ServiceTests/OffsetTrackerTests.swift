import LayoutService
import Testing

@Suite struct OffsetTrackerTests {
    @Test func commitsOnlyTheAcknowledgedPrefix() {
        var t = OffsetTracker()
        for o in 10...14 { t.begin(topic: "a", partition: 0, offset: Int64(o)) }
        #expect(t.committable().isEmpty)
        t.complete(topic: "a", partition: 0, offset: 12)
        t.complete(topic: "a", partition: 0, offset: 11)
        #expect(t.committable().isEmpty)  // 10 still pending
        t.complete(topic: "a", partition: 0, offset: 10)
        #expect(t.committable().map(\.offset) == [13])  // 10, 11, 12 done → next to read is 13
        t.markCommitted(t.committable())
        #expect(t.committable().isEmpty)
        #expect(t.nextOffset(topic: "a", partition: 0) == 13)  // still known after the commit (lag is measured from it)
        #expect(t.nextOffset(topic: "a", partition: 9) == nil)
        #expect(t.inProgress == 2)
        t.complete(topic: "a", partition: 0, offset: 14)
        #expect(t.committable().isEmpty)
        t.complete(topic: "a", partition: 0, offset: 13)
        #expect(t.committable().map(\.offset) == [15])
        #expect(t.inProgress == 0)
    }

    @Test func partitionsAreIndependentAndRemovable() {
        var t = OffsetTracker()
        t.begin(topic: "a", partition: 0, offset: 0)
        t.begin(topic: "a", partition: 1, offset: 5)
        t.begin(topic: "a", partition: 1, offset: 6)
        t.complete(topic: "a", partition: 1, offset: 5)
        #expect(t.committable().map { "\($0.partition):\($0.offset)" } == ["1:6"])
        #expect(t.remove(topic: "a", partition: 1) == 1)
        #expect(t.committable().isEmpty)
        #expect(t.inProgress(topic: "a", partition: 0) == 1)
    }

    @Test func longRunsCompact() {
        var t = OffsetTracker()
        for o in 0..<10_000 { t.begin(topic: "a", partition: 0, offset: Int64(o)) }
        for o in 0..<10_000 { t.complete(topic: "a", partition: 0, offset: Int64(o)) }
        #expect(t.committable().map(\.offset) == [10_000])
        #expect(t.inProgress == 0)
    }
}
