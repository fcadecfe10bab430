import Foundation
import LayoutKit
public import NIOCore

/// Record bodies and heads as buffers ready to write, kept per event loop: a record answered again (a hot page's
/// misses and revalidations through a CDN) goes out without being copied into a buffer again, and its answer (200 or
/// 304, head written) without being made again within the same second. The page book holds records as
/// arrays, sized to their bytes (a buffer's storage is rounded up to a power of two: a 48 KB record would take
/// 64 KB); what is written to a socket must be a buffer. Each loop keeps at most `maxBytesPerLoop` of buffers (their
/// storage counted), the oldest let go first; a body asked for off the group's loops is copied.
public final class RecordBodies: Sendable {
    /// A body: the record's hash and its encoding (the same hash is the same bytes).
    struct Key: Hashable {
        let hash: ContentHash
        let gzip: Bool
    }

    /// An answer: the representation's key and whether it is a 304 (the `Cache-Control` is checked apart: the same
    /// record is a published page's or a navigation state's).
    struct AnswerKey: Hashable {
        let body: Key
        let notModified: Bool
    }

    /// Per loop, 4 MiB: the hottest records of a page-cache budget, a fixed cost beside it.
    public static let maxBytesPerLoop = 4 << 20
    /// Per loop, the answers of at most so many representations a second (their heads about 300 bytes each).
    static let maxAnswersPerLoop = 1024

    private let byLoop: PerLoop<LoopBodies>

    /// The bodies of `loops` (none: every body is copied).
    public init(loops: [any EventLoop] = [], maxBytesPerLoop: Int = RecordBodies.maxBytesPerLoop) {
        byLoop = PerLoop(loops) { _ in LoopBodies(maxBytes: maxBytesPerLoop) }
    }

    /// `bytes` (whose hash and encoding are `key`) as a buffer: the current loop's when it holds it, else made and
    /// kept there.
    func buffer(_ key: Key, _ bytes: [UInt8]) -> ByteBuffer {
        guard let bodies = byLoop.current else { return ByteBuffer(bytes: bytes) }
        return bodies.buffer(key, bytes)
    }

    /// The answer for the representation `key` with `cacheControl` whose body is `body` (the representation's
    /// bytes, or none): the current loop's, when it made one this second, with `body` in it; else `make()`'s with its
    /// head written (`preparedHead`), kept without its body for the rest of the second (its `Date` is the
    /// second's). Off the group's loops, `make()`'s as it is: the connection writes its head.
    func answer(
        _ key: AnswerKey, cacheControl: String, body: ByteBuffer?, _ make: () -> HTTPAnswer
    ) -> HTTPAnswer {
        guard let loop = byLoop.current else { return make() }
        return loop.answer(key, cacheControl: cacheControl, body: body, second: time(nil), make)
    }
}

/// One loop's bodies; touched only on its loop.
final class LoopBodies: @unchecked Sendable {
    private let maxBytes: Int
    private var held: [RecordBodies.Key: ByteBuffer] = [:]
    private var order = CircularBuffer<RecordBodies.Key>()
    private var bytes = 0
    /// This second's answers, without their bodies (all let go when the second changes: their `Date` would be
    /// wrong).
    private var answers: [RecordBodies.AnswerKey: KeptAnswer] = [:]
    private var answersSecond: time_t = 0

    /// An answer with its head written, and what it was written for.
    private struct KeptAnswer {
        let cacheControl: String
        /// The body's length the head says.
        let bodyBytes: Int?
        let answer: HTTPAnswer
    }

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    func answer(
        _ key: RecordBodies.AnswerKey, cacheControl: String, body: ByteBuffer?, second: time_t, _ make: () -> HTTPAnswer
    ) -> HTTPAnswer {
        if second != answersSecond {
            answers.removeAll(keepingCapacity: true)
            answersSecond = second
        }
        if let kept = answers[key], kept.cacheControl == cacheControl, kept.bodyBytes == body?.readableBytes {
            var answer = kept.answer
            answer.replaceBody(keepingHead: body)
            return answer
        }
        var answer = make()
        var head = ByteBuffer()
        answer.writeHead(keepAlive: true, into: &head)
        answer.preparedHead = head
        if answers.count < RecordBodies.maxAnswersPerLoop {
            var bodiless = answer
            bodiless.replaceBody(keepingHead: nil)
            answers[key] = KeptAnswer(cacheControl: cacheControl, bodyBytes: body?.readableBytes, answer: bodiless)
        }
        return answer
    }

    func buffer(_ key: RecordBodies.Key, _ record: [UInt8]) -> ByteBuffer {
        if let buffer = held[key] { return buffer }
        let buffer = ByteBuffer(bytes: record)
        guard buffer.capacity <= maxBytes / 8 else { return buffer }  // a record too large to be worth keeping
        while bytes + buffer.capacity > maxBytes, let oldest = order.popFirst() {
            bytes -= held.removeValue(forKey: oldest)?.capacity ?? 0
        }
        held[key] = buffer
        order.append(key)
        bytes += buffer.capacity
        return buffer
    }
}
