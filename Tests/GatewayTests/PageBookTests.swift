import Foundation
import Kafka
import LayoutKit
import PageStore
import Synchronization
import Testing

@testable import Gateway

/// The gateway's page book without Kafka: which events streams get, resuming, slow streams, the byte budget.
/// Keeps what the page book hands to streams, in order.
final class RecordingSink: StreamSink {
    let events = Mutex<[(key: String, event: EventBytes)]>([])
    func publish(_ key: String, _ event: EventBytes) { events.withLock { $0.append((key, event)) } }
}

extension PageBook {
    /// A stream with no limit on how many the book follows.
    fileprivate func open(_ key: String, from: StreamPosition?) -> Opening {
        guard let opening = subscribe(key, from: from) else { preconditionFailure("refused with no limit") }
        return opening
    }
}

/// One stream as `GatewayConnection` runs it, without a socket: its opening, then each published event through
/// its cursor (the current record when it cannot apply one). What it was sent, as `GatewayEvent`s.
final class SimulatedStream {
    let book: PageBook
    let key: String
    var cursor: StreamCursor
    var sent: [GatewayEvent]
    var seen = 0

    init(_ book: PageBook, _ key: String, from: StreamPosition? = nil) {
        self.book = book
        self.key = key
        let opening = book.open(key, from: from)
        (cursor, sent) = (opening.cursor, opening.catchUp.map(Self.decode))
    }

    /// Takes what was published since the last look.
    func take(_ sink: RecordingSink) -> [GatewayEvent] {
        let new = sink.events.withLock { Array($0.dropFirst(seen)) }
        seen += new.count
        for (key, bytes) in new where key == self.key {
            switch cursor.decide(bytes.event) {
            case .skip: break
            case .send:
                sent.append(Self.decode(bytes))
                cursor.moved(to: bytes.event.target)
            case .sendRecord:
                if case .page(let record, let at) = book.read(key), cursor.wants(record: at) {
                    sent.append(.record(record, at: at))
                    cursor.moved(to: at)
                }
            }
        }
        return sent
    }

    /// The event back from its shared bytes (its `data:` line).
    static func decode(_ bytes: EventBytes) -> GatewayEvent {
        let text = String(decoding: bytes.plain.readableBytesView, as: UTF8.self)
        let data = Array(text.split(separator: "\n").first { $0.hasPrefix("data: ") }!.dropFirst(6).utf8)
        switch bytes.event {
        case .record(let at): return .record(data, at: at)
        case .changeSet(let base, let target): return .changeSet(data, base: base, target: target)
        }
    }
}

/// The gateway's page book without Kafka: which events streams get, resuming, positions, the byte budget.
@Suite struct PageBookTests {
    static func settings(maxBytes: Int = 1 << 20) -> GatewaySettings {
        var s = GatewaySettings(
            kafka: KafkaConfiguration(bootstrapServers: "127.0.0.1:1"), latestLayoutTopic: "latest",
            changesTopic: "changes")
        s.maxBytes = maxBytes
        s.changeSetGraceMs = 1_000
        return s
    }

    static func record(_ n: Int) -> [UInt8] { Array(#"{"version":2,"n":\#(n)}"#.utf8) }
    static func hash(_ n: Int) -> ContentHash { ContentHash(of: record(n)) }
    static func at(_ n: Int, _ offset: Int64? = nil) -> StreamPosition { StreamPosition(hash: hash(n), offset: offset) }
    static let start = ContinuousClock.now
    /// `nanoseconds` after the suite's start, on the book's clock.
    static func instant(_ nanoseconds: Int64) -> ContinuousClock.Instant { start + .nanoseconds(nanoseconds) }
    static func changeSet(_ from: Int, _ to: Int) -> [UInt8] { Array("cs \(from)->\(to)".utf8) }

    static func book(maxBytes: Int = 1 << 20, disk: PageStore? = nil) -> (PageBook, RecordingSink) {
        let sink = RecordingSink()
        return (PageBook(settings: settings(maxBytes: maxBytes), sink: sink, disk: disk), sink)
    }

    @Test func aStreamGetsTheRecordThenChangeSets() {
        let (book, sink) = Self.book()
        book.storeRecord(Self.record(1), for: "k", now: Self.instant(0))
        let stream = SimulatedStream(book, "k")
        // The change set arrives first (the latest layout follows): the stream moves by the change set only.
        book.storeChangeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2), for: "k")
        book.storeRecord(Self.record(2), for: "k", now: Self.instant(1))
        book.flushPending(now: Self.instant(5_000_000_000))
        #expect(
            stream.take(sink) == [
                .record(Self.record(1), at: Self.at(1)),
                .changeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2)),
            ])
        guard case .page(let record, let at) = book.read("k") else { return #expect(Bool(false)) }
        #expect(record == Self.record(2) && at.hash == Self.hash(2))
        // Pages without streams publish nothing.
        book.storeRecord(Self.record(7), for: "other", now: Self.instant(0))
        #expect(sink.events.withLock { $0.allSatisfy { $0.key == "k" } })
    }

    @Test func aRecordAheadOfItsChangeSetWaitsForIt() {
        let (book, sink) = Self.book()
        book.storeRecord(Self.record(1), for: "k", now: Self.instant(0))
        let stream = SimulatedStream(book, "k")
        book.storeRecord(Self.record(2), for: "k", now: Self.instant(10))
        book.flushPending(now: Self.instant(10 + 500_000_000))  // within the grace period: nothing yet
        book.storeChangeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2), for: "k")
        // No change set ever comes for the third: after the grace period the stream gets the record.
        book.storeRecord(Self.record(3), for: "k", now: Self.instant(2_000_000_000))
        book.flushPending(now: Self.instant(3_100_000_000))
        #expect(
            stream.take(sink) == [
                .record(Self.record(1), at: Self.at(1)),
                .changeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2)),
                .record(Self.record(3), at: Self.at(3)),
            ])
    }

    @Test func aResumedStreamGetsTheChangeSetsSinceItsHashElseTheRecord() {
        let (book, _) = Self.book()
        book.storeRecord(Self.record(1), for: "k", now: Self.instant(0))
        for n in 1..<4 {
            book.storeChangeSet(Self.changeSet(n, n + 1), base: Self.hash(n), target: Self.at(n + 1), for: "k")
            book.storeRecord(Self.record(n + 1), for: "k", now: Self.instant(0))
        }
        #expect(
            book.open("k", from: Self.at(2)).catchUp.map(SimulatedStream.decode) == [
                .changeSet(Self.changeSet(2, 3), base: Self.hash(2), target: Self.at(3)),
                .changeSet(Self.changeSet(3, 4), base: Self.hash(3), target: Self.at(4)),
            ])
        #expect(book.open("k", from: Self.at(4)).catchUp.isEmpty)
        let unknown = book.open("k", from: StreamPosition(hash: ContentHash(value: 42), offset: nil))
        #expect(unknown.catchUp.map(SimulatedStream.decode) == [.record(Self.record(4), at: Self.at(4))])
        #expect(book.open("never", from: nil).catchUp.isEmpty)
        #expect(book.streamCount == 4)
        for key in ["k", "k", "k", "never"] { book.unsubscribe(key) }
        #expect(book.streamCount == 0)
    }

    /// Change sets published again after a worker died (the page's last steps, byte for byte, oldest first) change
    /// nothing: no stream event, and a resumed stream still gets each step once.
    @Test func changeSetsPublishedAgainAreStepsTheBookAlreadyTook() {
        let (book, sink) = Self.book()
        book.storeRecord(Self.record(1), for: "k", now: Self.instant(0))
        for n in 1..<3 {
            book.storeChangeSet(Self.changeSet(n, n + 1), base: Self.hash(n), target: Self.at(n + 1), for: "k")
            book.storeRecord(Self.record(n + 1), for: "k", now: Self.instant(0))
        }
        let stream = SimulatedStream(book, "k")
        let held = book.figures.bytes
        for n in 1..<3 {
            book.storeChangeSet(Self.changeSet(n, n + 1), base: Self.hash(n), target: Self.at(n + 1), for: "k")
        }
        book.flushPending(now: Self.instant(5_000_000_000))
        // Kept once: the page holds no more than before (a repeat would crowd older steps out of its history).
        #expect(book.figures.bytes == held)
        #expect(stream.take(sink) == [.record(Self.record(3), at: Self.at(3))])
        #expect(
            book.open("k", from: Self.at(1)).catchUp.map(SimulatedStream.decode) == [
                .changeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2)),
                .changeSet(Self.changeSet(2, 3), base: Self.hash(2), target: Self.at(3)),
            ])
    }

    /// At its limit the book refuses a stream without counting it; 8 threads opening 100 streams each against a
    /// limit of 250 get exactly 250 (the check and the count are one step).
    @Test func atItsLimitTheBookRefusesAndNeverPassesIt() async {
        let (book, _) = Self.book()
        book.storeRecord(Self.record(1), for: "k", now: Self.instant(0))
        #expect(book.subscribe("k", from: nil, limit: 1) != nil)
        #expect(book.subscribe("k", from: nil, limit: 1) == nil)
        #expect(book.streamCount == 1 && book.streamsOpened == 1)
        book.unsubscribe("k")
        let admitted = await withTaskGroup(of: Int.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    (0..<100).filter { n in book.subscribe("k\(thread)-\(n % 3)", from: nil, limit: 250) != nil }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(admitted == 250)
        #expect(book.streamCount == 250)
    }

    /// A change set that came before its record moved the streams on: a client holding the record (older than
    /// the streams) is sent the change set, not left behind.
    @Test func aClientHoldingARecordTheStreamsArePastGetsTheChangeSet() {
        let (book, _) = Self.book()
        book.storeRecord(Self.record(1), for: "k", position: 1, now: Self.instant(0))
        book.storeChangeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2, 2), for: "k")
        #expect(
            book.open("k", from: Self.at(1, 1)).catchUp.map(SimulatedStream.decode) == [
                .changeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2, 2))
            ])
        // Its record then arrives: a client holding it is current.
        book.storeRecord(Self.record(2), for: "k", position: 2, now: Self.instant(0))
        #expect(book.open("k", from: Self.at(2, 2)).catchUp.isEmpty)
    }

    /// A client that comes from a replica ahead of this one (its position is newer than the page here) is sent
    /// nothing older: not the record held here, not a change set to a position before its own; the first event at
    /// or past its position reaches it.
    @Test func aClientAheadOfThisGatewayIsNeverSentAnOlderPage() {
        let (book, sink) = Self.book()
        book.storeRecord(Self.record(1), for: "k", position: 5, now: Self.instant(0))
        let ahead = SimulatedStream(book, "k", from: Self.at(3, 9))
        #expect(ahead.sent.isEmpty)
        // The page moves to position 7 (still older than the client's 9): nothing.
        book.storeChangeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2, 7), for: "k")
        book.storeRecord(Self.record(2), for: "k", position: 7, now: Self.instant(0))
        #expect(ahead.take(sink).isEmpty)
        // It reaches the client's own position: nothing to send (the client has it); past it: sent.
        book.storeChangeSet(Self.changeSet(2, 3), base: Self.hash(2), target: Self.at(3, 9), for: "k")
        book.storeRecord(Self.record(3), for: "k", position: 9, now: Self.instant(0))
        #expect(ahead.take(sink).isEmpty)
        book.storeChangeSet(Self.changeSet(3, 4), base: Self.hash(3), target: Self.at(4, 11), for: "k")
        #expect(ahead.take(sink) == [.changeSet(Self.changeSet(3, 4), base: Self.hash(3), target: Self.at(4, 11))])
        // A client behind the page (or with no position) gets the record.
        #expect(
            book.open("k", from: Self.at(8, 1)).catchUp.map(SimulatedStream.decode) == [
                .record(Self.record(3), at: Self.at(3, 9))
            ])
        // Every new client of one record is sent the same bytes.
        let (a, b) = (book.open("k", from: nil).catchUp, book.open("k", from: nil).catchUp)
        #expect(a.count == 1 && a[0].plain == b[0].plain)
    }

    @Test func aCursorNeverMovesBackAndAsksForTheRecordOnAGap() {
        var cursor = StreamCursor(held: Self.hash(1), floor: 4)
        #expect(cursor.decide(.changeSet(base: Self.hash(1), target: Self.at(2, 5))) == .send)
        #expect(cursor.decide(.changeSet(base: Self.hash(1), target: Self.at(2, 3))) == .skip)
        #expect(cursor.decide(.changeSet(base: Self.hash(9), target: Self.at(2, 6))) == .sendRecord)
        #expect(cursor.decide(.changeSet(base: Self.hash(0), target: Self.at(1))) == .skip)
        #expect(cursor.decide(.record(Self.at(1, 4))) == .skip)
        #expect(cursor.decide(.record(Self.at(2, 2))) == .skip)
        #expect(cursor.decide(.record(Self.at(2))) == .send)
        #expect(!cursor.wants(record: Self.at(3, 3)) && cursor.wants(record: Self.at(3, 4)))
        cursor.moved(to: Self.at(3, 8))
        cursor.moved(to: Self.at(4))
        #expect(cursor.floor == 8 && cursor.held == Self.hash(4))
        #expect(StreamPosition(parsing: "\(Self.hash(4))@8") == Self.at(4, 8))
        #expect(StreamPosition(parsing: Self.hash(4).description) == Self.at(4))
        #expect(StreamPosition(parsing: "\(Self.hash(4))@-1") == nil && StreamPosition(parsing: "x@1") == nil)
    }

    @Test func pagesBeyondTheBudgetAreLetGoLeastRecentlyReadFirst() {
        let size = Self.record(0).count + PageBook.Page.overheadBytes
        let (book, _) = Self.book(maxBytes: size * 3)
        for n in 0..<3 { book.storeRecord(Self.record(n), for: "p\(n)", now: Self.instant(0)) }
        _ = book.read("p0")  // p1 is now the least recently read
        _ = book.read("p2")
        book.storeRecord(Self.record(3), for: "p3", now: Self.instant(0))
        guard case .evicted = book.read("p1") else { return #expect(Bool(false), "p1 should be let go") }
        guard case .page = book.read("p0") else { return #expect(Bool(false)) }
        guard case .unknown = book.read("nope") else { return #expect(Bool(false)) }
        #expect(book.figures.bytes <= size * 3 && book.figures.evictions >= 1)
        // A page let go is served again once it changes.
        book.storeRecord(Self.record(9), for: "p1", now: Self.instant(0))
        guard case .page(_, let at) = book.read("p1") else { return #expect(Bool(false)) }
        #expect(at.hash == Self.hash(9))
    }

    /// With a page store nothing is let go for good: a page past the budget is read back from disk, with its
    /// change sets, and a tombstone removes it there too.
    @Test func withAPageStorePagesPastTheBudgetAreReadFromDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("book-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try PageStore.open(directory: dir, identity: "test")
        let size = Self.record(0).count + PageBook.Page.overheadBytes
        let (book, _) = Self.book(maxBytes: size * 3, disk: store)
        for n in 0..<20 { book.storeRecord(Self.record(n), for: "p\(n)", position: Int64(n), now: Self.instant(0)) }
        book.storeChangeSet(Self.changeSet(1, 21), base: Self.hash(1), target: Self.at(21, 30), for: "p1")
        book.storeRecord(Self.record(21), for: "p1", position: 30, now: Self.instant(0))
        #expect(book.flush() == nil)
        #expect(book.figures.pages <= 3 && book.figures.evictions > 0)
        for n in 2..<20 {
            guard case .page(let record, _) = book.read("p\(n)") else { return #expect(Bool(false), "p\(n)") }
            #expect(record == Self.record(n))
        }
        // p1 comes back from disk with its change set: a stream holding version 1 gets it, not the record.
        let resumed = book.open("p1", from: Self.at(1, 1)).catchUp.map(SimulatedStream.decode)
        #expect(resumed == [.changeSet(Self.changeSet(1, 21), base: Self.hash(1), target: Self.at(21, 30))])
        // Its position came back from disk too.
        guard case .page(_, let at) = book.read("p7") else { return #expect(Bool(false)) }
        #expect(at == Self.at(7, 7))
        book.storeRecord(nil, for: "p5", now: Self.instant(0))
        #expect(book.flush() == nil)
        guard case .unknown = book.read("p5") else { return #expect(Bool(false), "p5 was cleared") }
        #expect(try store.page(PageKey("p5", in: .whole)) == nil && store.page(PageKey("p6", in: .whole)) != nil)
    }

    /// While the latest layouts fill an empty store, a record replaces a page let go from memory without reading
    /// the store's copy (an earlier record of the same reading); reads still come from disk, and once caught up a
    /// record reads the copy again (it may hold change sets).
    @Test func fillingAnEmptyStoreReplacesPagesWithoutReadingThem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("book-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try PageStore.open(directory: dir, identity: "test")
        let (book, _) = Self.book(maxBytes: 1, disk: store)  // every page let go once written
        book.catchUp(emptyStore: true)
        book.storeRecord(Self.record(1), for: "k", position: 1, now: Self.instant(0))
        #expect(book.flush() == nil)
        #expect(book.figures.pages == 0 && book.figures.diskReads == 0)
        book.storeRecord(Self.record(2), for: "k", position: 2, now: Self.instant(0))
        #expect(book.flush() == nil)
        #expect(book.figures.diskReads == 0, "the copy on disk is replaced, not read")
        guard case .page(let record, let at) = book.read("k") else { return #expect(Bool(false), "k on disk") }
        #expect(record == Self.record(2) && at == Self.at(2, 2))
        #expect(book.figures.diskReads == 1, "a read still reads the store")
        #expect(book.flush() == nil)
        #expect(book.caughtUp() == nil)
        book.storeRecord(Self.record(3), for: "other", position: 3, now: Self.instant(0))
        #expect(book.flush() == nil)
        book.storeRecord(Self.record(4), for: "k", position: 4, now: Self.instant(0))
        #expect(book.figures.diskReads == 3, "after the filling a record reads the copy it replaces")
    }

    /// The topics are read apart, so change sets can come before their page's first record (seen under load): they
    /// are kept (on disk too) and sent to nobody; once the records are there a client resuming from version 1 gets
    /// the change sets since it, not the record.
    @Test func changeSetsBeforeThePagesFirstRecordAreKept() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("book-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try PageStore.open(directory: dir, identity: "test")
        let (book, sink) = Self.book(maxBytes: 1, disk: store)  // every page let go once written
        book.storeChangeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2), for: "k")
        book.storeChangeSet(Self.changeSet(2, 3), base: Self.hash(2), target: Self.at(3), for: "k")
        #expect(book.flush() == nil)
        #expect(book.figures.pages == 0, "let go from memory, kept on disk")
        guard case .unknown = book.read("k") else { return #expect(Bool(false), "no record yet") }
        #expect(sink.events.withLock { $0.isEmpty })
        for n in 1...3 { book.storeRecord(Self.record(n), for: "k", now: Self.instant(0)) }
        book.flushPending(now: Self.instant(2_000_000_000))  // past the grace: streams get record 3
        #expect(
            book.open("k", from: Self.at(1)).catchUp.map(SimulatedStream.decode) == [
                .changeSet(Self.changeSet(1, 2), base: Self.hash(1), target: Self.at(2)),
                .changeSet(Self.changeSet(2, 3), base: Self.hash(2), target: Self.at(3)),
            ])
    }

    /// A page keeps as many change sets as fit in its record's bytes; a resume that would need more gets the record.
    @Test func changeSetsKeptAreBoundedByTheRecordsBytes() {
        let big = Array(repeating: UInt8(ascii: "x"), count: 20_000)
        let history = (0..<10).map {
            StoredChange(base: ContentHash(value: UInt64($0)), target: ContentHash(value: UInt64($0 + 1)), bytes: big)
        }
        let kept = ChangeHistory.keep(history, recordBytes: 50_000)
        #expect(kept.count == 2 && kept.last == history.last)
        #expect(ChangeHistory.keep(history, recordBytes: 1_000).count == 0)
        #expect(
            ChangeHistory.keep(
                Array(history.prefix(3)).map {
                    var c = $0; c.bytes = [1]; return c
                }, recordBytes: 10
            ).count == 3)
    }

    @Test func keysAreDecodedOnceAndBounded() throws {
        #expect(try RequestKey.decode("a%2Fb%252F", maxBytes: 64).get() == "a/b%2F")
        #expect(try RequestKey.decode("caf%C3%A9", maxBytes: 64).get() == "café")
        for (raw, code) in [
            ("a%2", "bad-key"), ("%FF", "bad-key"), ("", "bad-key"),
            (String(repeating: "x", count: 65), "key-too-long"),
        ] {
            guard case .failure(let p) = RequestKey.decode(Substring(raw), maxBytes: 64) else {
                Issue.record("\(raw) was taken")
                continue
            }
            #expect(p.code == code, "\(raw)")
        }
        let h = Self.hash(1)
        #expect(RecordRepresentation.matches(#"W/"abc", "\#(h)""#, h))
        #expect(RecordRepresentation.matches(#""\#(h)-gzip""#, h) && RecordRepresentation.matches("*", h))
        #expect(!RecordRepresentation.matches(#""abc""#, h))
        #expect(RecordRepresentation.acceptsGzip("br, gzip;q=0.8") && !RecordRepresentation.acceptsGzip("gzip;q=0"))
    }
}
