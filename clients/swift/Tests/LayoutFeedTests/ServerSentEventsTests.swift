import LayoutFeed
import LayoutKit
import Testing

@Suite struct ServerSentEventsTests {
    @Test func eventsArriveWholeWhateverTheChunks() {
        let text =
            "retry: 2000\n: open\n\nevent: record\nid: 00000000000000ff\ndata: {\"a\":1}\n\n: heartbeat\n\r\nevent: change-set\r\nid: 2\r\ndata: x\r\ndata: y\r\n\r\n"
        let bytes = Array(text.utf8)
        for size in [1, 2, 3, 7, bytes.count] {
            var parser = ServerSentEvents()
            var events: [ServerSentEvents.Event] = []
            var i = 0
            while i < bytes.count {
                events += parser.feed(bytes[i..<min(i + size, bytes.count)])
                i += size
            }
            #expect(
                events == [
                    .init(name: "record", id: "00000000000000ff", data: Array(#"{"a":1}"#.utf8)),
                    .init(name: "change-set", id: "2", data: Array("x\ny".utf8)),
                ], "chunks of \(size)")
        }
    }

    @Test func aFeedShowsRecordsAndAsksForOneOnAStaleBase() throws {
        var state = FeedState()
        let record = Array(Wire.emptyRecord.utf8)
        #expect(try state.take(.init(name: "record", id: nil, data: record)) == .show(record, ContentHash(of: record)))
        #expect(try state.take(.init(name: "record", id: nil, data: record)) == .none)
        // A change set against another base: fetch the record.
        let stale = Array(
            #"{"version":2,"kind":"layout-change-set","key":"k","base":{"hash":"0000000000000001"},"target":{"hash":"0000000000000002"},"record":null,"sections":null,"diagnostics":[]}"#
                .utf8)
        #expect(try state.take(.init(name: "change-set", id: nil, data: stale)) == .fetchRecord)
        #expect(try state.take(.init(name: "other", id: nil, data: [])) == .none)
    }
}
