import LayoutKit
import NIOCore
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
