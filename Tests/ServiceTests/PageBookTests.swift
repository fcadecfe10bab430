import Foundation
import Kafka
import LayoutKit
import PageStore
import Testing

@testable import Gateway

/// The gateway's page book without Kafka: which events streams get, resuming, slow streams, the byte budget.
@Suite struct PageBookTests {
    static func settings(maxBytes: Int = 1 << 20, buffer: Int = 8) -> GatewaySettings {
        var s = GatewaySettings(
            kafka: KafkaConfiguration(bootstrapServers: "127.0.0.1:1"), latestTopic: "latest", changesTopic: "changes")
        s.maxBytes = maxBytes
        s.streamBuffer = buffer
        s.changeSetGraceMs = 1_000
        return s
    }

    static func record(_ n: Int) -> [UInt8] { Array(#"{"version":2,"n":\#(n)}"#.utf8) }
    static func hash(_ n: Int) -> ContentHash { ContentHash(of: record(n)) }
    static func changeSet(_ from: Int, _ to: Int) -> [UInt8] { Array("cs \(from)->\(to)".utf8) }

    /// What a stream holds right now (without waiting).
    static func drain(_ stream: PageBook.Stream) async -> [PageBook.Item] {
        var out: [PageBook.Item] = []
        let book = Task {
            var it = stream.items.makeAsyncIterator()
            var got: [PageBook.Item] = []
            while let item = await it.next() { got.append(item) }
            return got
        }
        stream.continuation.finish()
        out = await book.value
        return out
    }

    @Test func aStreamGetsTheRecordThenChangeSets() async {
        let book = PageBook(settings: Self.settings())
        book.storeRecord(Self.record(1), for: "k", now: 0)
        let stream = book.subscribe("k", lastEventID: nil)
        // The change set arrives first (the latest layout follows): the stream moves by the change set only.
        book.storeChangeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.hash(2), for: "k")
        book.storeRecord(Self.record(2), for: "k", now: 1)
        book.flushPending(now: 5_000_000_000)
        let items = await Self.drain(stream)
        #expect(
            items == [
                .event(.record(Self.record(1), hash: Self.hash(1))),
                .event(.changeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.hash(2))),
            ])
        guard case .page(let record, let hash) = book.read("k") else { return #expect(Bool(false)) }
        #expect(record == Self.record(2) && hash == Self.hash(2))
    }

    @Test func aRecordAheadOfItsChangeSetWaitsForIt() async {
        let book = PageBook(settings: Self.settings())
        book.storeRecord(Self.record(1), for: "k", now: 0)
        let stream = book.subscribe("k", lastEventID: nil)
        book.storeRecord(Self.record(2), for: "k", now: 10)
        book.flushPending(now: 10 + 500_000_000)  // within the grace period: nothing yet
        book.storeChangeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.hash(2), for: "k")
        // No change set ever comes for the third: after the grace period the stream gets the record.
        book.storeRecord(Self.record(3), for: "k", now: 2_000_000_000)
        book.flushPending(now: 3_100_000_000)
        let items = await Self.drain(stream)
        #expect(
            items == [
                .event(.record(Self.record(1), hash: Self.hash(1))),
                .event(.changeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.hash(2))),
                .event(.record(Self.record(3), hash: Self.hash(3))),
            ])
    }

    @Test func aResumedStreamGetsTheChangeSetsSinceItsHashElseTheRecord() async {
        let book = PageBook(settings: Self.settings())
        book.storeRecord(Self.record(1), for: "k", now: 0)
        for n in 1..<4 {
            book.storeChangeSet(Self.changeSet(n, n + 1), base: Self.hash(n), target: Self.hash(n + 1), for: "k")
            book.storeRecord(Self.record(n + 1), for: "k", now: 0)
        }
        let resumed = await Self.drain(book.subscribe("k", lastEventID: Self.hash(2)))
        #expect(
            resumed == [
                .event(.changeSet(Self.changeSet(2, 3), base: Self.hash(2), target: Self.hash(3))),
                .event(.changeSet(Self.changeSet(3, 4), base: Self.hash(3), target: Self.hash(4))),
            ])
        #expect(await Self.drain(book.subscribe("k", lastEventID: Self.hash(4))).isEmpty)
        let unknown = await Self.drain(book.subscribe("k", lastEventID: ContentHash(value: 42)))
        #expect(unknown == [.event(.record(Self.record(4), hash: Self.hash(4)))])
        #expect(await Self.drain(book.subscribe("never", lastEventID: nil)).isEmpty)
    }

    @Test func aStreamThatCannotKeepUpIsToldToTakeTheRecord() async {
        let book = PageBook(settings: Self.settings(buffer: 2))
        book.storeRecord(Self.record(0), for: "k", now: 0)
        let stream = book.subscribe("k", lastEventID: nil)  // holds the record: 1 of 2
        for n in 0..<5 {
            book.storeChangeSet(Self.changeSet(n, n + 1), base: Self.hash(n), target: Self.hash(n + 1), for: "k")
        }
        #expect(stream.takeOverflow())
        #expect(!stream.takeOverflow())
        #expect(await Self.drain(stream).count == 2)
    }

    @Test func pagesBeyondTheBudgetAreLetGoLeastRecentlyReadFirst() {
        let size = Self.record(0).count
        let book = PageBook(settings: Self.settings(maxBytes: size * 3))
        for n in 0..<3 { book.storeRecord(Self.record(n), for: "p\(n)", now: 0) }
        _ = book.read("p0")  // p1 is now the least recently read
        _ = book.read("p2")
        book.storeRecord(Self.record(3), for: "p3", now: 0)
        guard case .evicted = book.read("p1") else { return #expect(Bool(false), "p1 should be let go") }
        guard case .page = book.read("p0") else { return #expect(Bool(false)) }
        guard case .unknown = book.read("nope") else { return #expect(Bool(false)) }
        #expect(book.figures.bytes <= size * 3 && book.figures.evictions >= 1)
        // A page let go is served again once it changes.
        book.storeRecord(Self.record(9), for: "p1", now: 0)
        guard case .page(_, let h) = book.read("p1") else { return #expect(Bool(false)) }
        #expect(h == Self.hash(9))
    }

    /// With a page store nothing is let go for good: a page past the budget is read back from disk, with its
    /// change sets, and a tombstone removes it there too.
    @Test func withAPageStorePagesPastTheBudgetAreReadFromDisk() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("book-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try PageStore.open(directory: dir, identity: "test")
        let size = Self.record(0).count
        let book = PageBook(settings: Self.settings(maxBytes: size * 3), disk: store)
        for n in 0..<20 { book.storeRecord(Self.record(n), for: "p\(n)", now: 0) }
        book.storeChangeSet(Self.changeSet(1, 21), base: Self.hash(1), target: Self.hash(21), for: "p1")
        book.storeRecord(Self.record(21), for: "p1", now: 0)
        #expect(book.flush() == nil)
        #expect(book.figures.pages <= 3 && book.figures.evictions > 0)
        for n in 2..<20 {
            guard case .page(let record, _) = book.read("p\(n)") else { return #expect(Bool(false), "p\(n)") }
            #expect(record == Self.record(n))
        }
        // p1 comes back from disk with its change set: a stream holding version 1 gets it, not the record.
        let resumed = await Self.drain(book.subscribe("p1", lastEventID: Self.hash(1)))
        #expect(resumed == [.event(.changeSet(Self.changeSet(1, 21), base: Self.hash(1), target: Self.hash(21)))])
        book.storeRecord(nil, for: "p5", now: 0)
        #expect(book.flush() == nil)
        guard case .unknown = book.read("p5") else { return #expect(Bool(false), "p5 was cleared") }
        #expect(try store.page("p5", in: .whole) == nil && store.page("p6", in: .whole) != nil)
    }

    /// A page keeps as many change sets as fit in its record's bytes; a resume that would need more gets the record.
    @Test func changeSetsKeptAreBoundedByTheRecordsBytes() {
        let big = Array(repeating: UInt8(ascii: "x"), count: 20_000)
        let history = (0..<10).map {
            StoredChange(base: ContentHash(value: UInt64($0)), target: ContentHash(value: UInt64($0 + 1)), bytes: big)
        }
        let kept = PageBook.keep(history, recordBytes: 50_000)
        #expect(kept.count == 2 && kept.last == history.last)
        #expect(PageBook.keep(history, recordBytes: 1_000).count == 0)
        #expect(
            PageBook.keep(
                Array(history.prefix(3)).map {
                    var c = $0; c.bytes = [1]; return c
                }, recordBytes: 10
            ).count == 3)
    }

    @Test func streamsDecideOnEachEventByTheHashTheyHold() {
        let (h1, h2, h3) = (Self.hash(1), Self.hash(2), Self.hash(3))
        #expect(GatewayEndpoints.decide(.changeSet([], base: h1, target: h2), holding: h1) == .send)
        #expect(GatewayEndpoints.decide(.changeSet([], base: h1, target: h2), holding: h2) == .skip)
        #expect(GatewayEndpoints.decide(.changeSet([], base: h2, target: h3), holding: h1) == .sendRecord)
        #expect(GatewayEndpoints.decide(.record([], hash: h2), holding: h2) == .skip)
        #expect(GatewayEndpoints.decide(.record([], hash: h2), holding: nil) == .send)
    }

    @Test func keysAreDecodedOnceAndBounded() throws {
        #expect(try PageKey.decode("a%2Fb%252F", maxBytes: 64).get() == "a/b%2F")
        #expect(try PageKey.decode("caf%C3%A9", maxBytes: 64).get() == "café")
        for (raw, code) in [
            ("a%2", "bad-key"), ("%FF", "bad-key"), ("", "bad-key"),
            (String(repeating: "x", count: 65), "key-too-long"),
        ] {
            guard case .failure(let p) = PageKey.decode(Substring(raw), maxBytes: 64) else {
                Issue.record("\(raw) was taken")
                continue
            }
            #expect(p.code == code, "\(raw)")
        }
        #expect(GatewayEndpoints.matches(#"W/"abc", "def""#, #""def""#))
        #expect(!GatewayEndpoints.matches(#""abc""#, #""def""#))
        #expect(GatewayEndpoints.acceptsGzip("br, gzip;q=0.8") && !GatewayEndpoints.acceptsGzip("gzip;q=0"))
    }
}
