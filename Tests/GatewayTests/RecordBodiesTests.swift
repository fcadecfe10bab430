import LayoutKit
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import Gateway

/// Record bodies as buffers per event loop: made once per record and encoding on a loop, bounded in bytes.
@Suite struct RecordBodiesTests {
    static func key(_ n: UInt64, gzip: Bool = false) -> RecordBodies.Key {
        RecordBodies.Key(hash: ContentHash(value: n), gzip: gzip)
    }

    /// Whether two buffers (both held while compared, so that one freed cannot lend its address to the other) share
    /// their storage: the same body answered twice, not a copy.
    static func same(_ a: ByteBuffer, _ b: ByteBuffer) -> Bool {
        a.withUnsafeReadableBytes { x in b.withUnsafeReadableBytes { y in x.baseAddress == y.baseAddress } }
    }

    @Test func aBodyIsMadeOncePerLoopAndEncodingThenAnsweredAsItIs() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let bodies = RecordBodies(loops: [loop], maxBytesPerLoop: 1 << 20)
        let record = Array(repeating: UInt8(ascii: "r"), count: 10_000)
        let (first, again, gzip) = try loop.submit {
            (
                bodies.buffer(Self.key(1), record), bodies.buffer(Self.key(1), record),
                bodies.buffer(Self.key(1, gzip: true), record)
            )
        }.wait()
        #expect(Self.same(first, again), "the same record and encoding again is the buffer made the first time")
        #expect(!Self.same(gzip, first), "each encoding has its own buffer")
        // Off the group's loops (a test, a task elsewhere) a body is copied each time, and the bytes are the same.
        let here = bodies.buffer(Self.key(1), record)
        #expect(Array(here.readableBytesView) == record)
        #expect(!Self.same(here, bodies.buffer(Self.key(1), record)) && !Self.same(here, first))
    }

    @Test func aLoopKeepsAtMostItsBytesTheOldestGoingFirst() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        // 64 KiB a loop: 8 KiB buffers (a 5,000-byte record's storage), at most 8 held.
        let bodies = RecordBodies(loops: [loop], maxBytesPerLoop: 64 << 10)
        let record = Array(repeating: UInt8(ascii: "r"), count: 5_000)
        let kept = try loop.submit { () -> (Bool, Bool, Bool) in
            let first = bodies.buffer(Self.key(0), record)
            let firstAgain = Self.same(first, bodies.buffer(Self.key(0), record))
            for n in 1...8 { _ = bodies.buffer(Self.key(UInt64(n)), record) }
            let lastStillHeld = Self.same(bodies.buffer(Self.key(8), record), bodies.buffer(Self.key(8), record))
            // Nine made: the first was let go, so it is made anew.
            let firstMadeAgain = !Self.same(bodies.buffer(Self.key(0), record), first)
            return (firstAgain, lastStillHeld, firstMadeAgain)
        }.wait()
        #expect(kept.0 && kept.1 && kept.2, "\(kept)")
        // A record larger than an eighth of the bytes is not kept at all.
        let large = Array(repeating: UInt8(ascii: "l"), count: 9_000)
        let keptLarge = try loop.submit {
            Self.same(bodies.buffer(Self.key(99), large), bodies.buffer(Self.key(99), large))
        }.wait()
        #expect(!keptLarge)
    }
}

/// A record's answer (200 or 304) is made and its head written once per loop, representation and second, then
/// answered as it is (a 200 with the body it is asked with); a change to the answer (CORS headers added) lets the
/// head go.
@Suite struct RecordHeadsTests {
    static func answer(_ status: HTTPResponseStatus, cacheControl: String, body: ByteBuffer? = nil) -> HTTPAnswer {
        HTTPAnswer(status, headers: [("etag", "\"00000000000000aa\""), ("cache-control", cacheControl)], body: body)
    }

    /// The answer `bodies` gives for `key`, and whether it had to make it.
    static func answer(
        _ bodies: RecordBodies, _ key: RecordBodies.AnswerKey, _ cacheControl: String, body: ByteBuffer? = nil
    ) -> (answer: HTTPAnswer, made: Bool) {
        var made = false
        let answer = bodies.answer(key, cacheControl: cacheControl, body: body) {
            made = true
            return Self.answer(key.notModified ? .notModified : .ok, cacheControl: cacheControl, body: body)
        }
        return (answer, made)
    }

    @Test func anAnswerIsMadeOncePerRepresentationAndCacheControl() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let bodies = RecordBodies(loops: [loop])
        let key = RecordBodies.AnswerKey(body: RecordBodiesTests.key(0xaa), notModified: true)
        let published = "public, max-age=1"
        let (first, again, other) = try loop.submit {
            (
                Self.answer(bodies, key, published), Self.answer(bodies, key, published),
                Self.answer(bodies, key, "no-cache")
            )
        }.wait()
        // Within one second made once (a test crossing a second's edge sees it made twice; tried three times).
        var reused =
            first.made && !again.made && RecordBodiesTests.same(first.answer.preparedHead!, again.answer.preparedHead!)
        for _ in 0..<2 where !reused {
            reused = try loop.submit {
                let (a, b) = (Self.answer(bodies, key, published), Self.answer(bodies, key, published))
                return !b.made && RecordBodiesTests.same(a.answer.preparedHead!, b.answer.preparedHead!)
            }.wait()
        }
        #expect(reused, "the same representation's answer again is the one made the first time, head and all")
        var written = ByteBuffer()
        Self.answer(.notModified, cacheControl: published).writeHead(keepAlive: true, into: &written)
        let text = { (b: ByteBuffer) in String(buffer: b).replacing(/date: [^\r]*/, with: "date: -") }
        #expect(text(first.answer.preparedHead!) == text(written), "the kept head is the one the answer writes")
        #expect(other.made, "another Cache-Control, another answer")
        #expect(String(buffer: other.answer.preparedHead!).contains("cache-control: no-cache\r\n"))
        #expect(!String(buffer: other.answer.preparedHead!).contains("max-age"))
        // Off the group's loops nothing is kept: the answer is made, and the connection writes its head.
        let off = Self.answer(bodies, key, published)
        #expect(off.made && off.answer.preparedHead == nil)
    }

    @Test func aKeptOKCarriesTheBodyItIsAskedWithAndNoneIsKept() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let bodies = RecordBodies(loops: [loop])
        let key = RecordBodies.AnswerKey(body: RecordBodiesTests.key(0xbb), notModified: false)
        let body = ByteBuffer(string: "{\"record\":1}")
        let (first, again, shorter) = try loop.submit {
            (
                Self.answer(bodies, key, "public", body: body), Self.answer(bodies, key, "public", body: body),
                Self.answer(bodies, key, "public", body: ByteBuffer(string: "{}"))
            )
        }.wait()
        for answer in [first.answer, again.answer] {
            #expect(answer.body.map { RecordBodiesTests.same($0, body) } == true, "the body asked with goes out")
            #expect(String(buffer: answer.preparedHead!).contains("content-length: \(body.readableBytes)\r\n"))
        }
        // A body of another length is never sent under a head written for another: that answer is made anew.
        #expect(shorter.made && String(buffer: shorter.answer.preparedHead!).contains("content-length: 2\r\n"))
    }

    @Test func aChangedAnswerLetsItsPreparedHeadGo() {
        var answer = Self.answer(.ok, cacheControl: "public, max-age=1")
        answer.preparedHead = ByteBuffer(string: "HTTP/1.1 200 OK\r\n\r\n")
        answer.set("access-control-allow-origin", "https://shop.example")
        #expect(answer.preparedHead == nil)
        answer.preparedHead = ByteBuffer(string: "HTTP/1.1 200 OK\r\n\r\n")
        answer.status = .notModified
        #expect(answer.preparedHead == nil)
    }
}
