import Foundation
import LayoutCompiler
import LayoutDiff
import LayoutKit
import LayoutPreview
import LayoutRecord
import Logging
import Mapping
import TestSupport
import Testing

@Suite struct PreviewHubTests {
    @Test func recordsReachTheConnectionsAsChangeSets() async throws {
        let a = try Samples.record("search-page")
        let b = try Samples.record("grouped-results")
        let hub = PreviewHub(pageNames: ["page"])
        var events = await hub.subscribe().makeAsyncIterator()
        #expect(await events.next() == .snapshot(pages: [PreviewPage(name: "page")], problem: nil))
        await hub.show(a, page: 0)
        guard case .change(0, let fromEmpty)? = await events.next() else { Issue.record("no change set"); return }
        #expect(try ChangeSetApplier().apply(fromEmpty, to: nil) == a)
        await hub.show(b, page: 0)
        guard case .change(0, let aToB)? = await events.next() else { Issue.record("no change set"); return }
        #expect(try ChangeSetApplier().apply(aToB, to: a) == b)
        // The same record again changes nothing; a new connection starts from what the page shows.
        await hub.show(b, page: 0)
        await hub.report("x", page: 0)
        #expect(await events.next() == .problem(page: 0, message: "x"))
        var late = await hub.subscribe().makeAsyncIterator()
        #expect(
            await late.next() == .snapshot(pages: [PreviewPage(name: "page", record: b, problem: "x")], problem: nil))
        // A record clears the page's problem.
        await hub.show(a, page: 0)
        guard case .change? = await events.next() else { Issue.record("no change set"); return }
        #expect(await events.next() == .problem(page: 0, message: nil))
    }

    @Test func aChangeSetForAnotherBaseIsAProblemAndChangesNothing() async throws {
        let a = try Samples.record("search-page")
        let b = try Samples.record("grouped-results")
        let c = try Samples.record("empty-results")
        let bToC = LayoutDiffer().diff(from: try RecordOutline(bytes: b), to: try RecordOutline(bytes: c), key: nil)
        let hub = PreviewHub(pageNames: ["page"])
        await hub.show(a, page: 0)
        var events = await hub.subscribe().makeAsyncIterator()
        _ = await events.next()
        await hub.apply(bToC.bytes, page: 0, origin: "t[0]@7")
        guard case .problem(0, let message?)? = await events.next() else { Issue.record("no problem"); return }
        #expect(message.hasPrefix("t[0]@7: "))
        #expect(message.contains("fetch the full record"))
        #expect(await hub.snapshot.pages[0].record == a)
        // Malformed bytes too, and a record that is not one.
        await hub.apply(Array("{".utf8), page: 0, origin: "t[0]@8")
        guard case .problem(0, let malformed?)? = await events.next() else { Issue.record("no problem"); return }
        #expect(malformed.hasPrefix("t[0]@8: "))
        await hub.show(Array("[1]".utf8), page: 0)
        guard case .problem(0, let notRecord?)? = await events.next() else { Issue.record("no problem"); return }
        #expect(notRecord.hasPrefix("not a layout record"))
        #expect(await hub.snapshot.pages[0].record == a)
    }

    @Test func eventsAreOneLineOfJSONEach() throws {
        let record = try Samples.record("search-page")
        let events: [PreviewEvent] = [
            .snapshot(pages: [PreviewPage(name: "a\n\"b\"", record: record, problem: "line 1\nline 2")], problem: nil),
            .change(page: 3, changeSet: Array(#"{"x":"\n"}"#.utf8)),
            .problem(page: nil, message: "config: bad\nworse"),
        ]
        for event in events {
            let bytes = event.serverSentEvent
            #expect(bytes.starts(with: Array("data: ".utf8)))
            #expect(bytes.suffix(2) == [0x0A, 0x0A])
            #expect(!bytes.dropLast(2).contains(0x0A) && !bytes.contains(0x0D), "one data line")
            let json = try JSONSerialization.jsonObject(with: Data(bytes.dropFirst(6).dropLast(2))) as! [String: Any]
            switch event {
            case .snapshot:
                let page = (json["pages"] as! [[String: Any]])[0]
                #expect(Array((page["record"] as! String).utf8) == record, "the record's text, byte for byte")
                #expect(page["name"] as? String == "a\n\"b\"")
                #expect(page["problem"] as? String == "line 1\nline 2")
            case .change:
                #expect(json["page"] as? Int == 3)
                #expect(json["changeSet"] as? String == #"{"x":"\n"}"#)
            default:
                #expect(json["page"] is NSNull)
                #expect(json["message"] as? String == "config: bad\nworse")
            }
        }
        #expect(PreviewEvent.ping.serverSentEvent == Array(": ping\n\n".utf8))
    }
}
