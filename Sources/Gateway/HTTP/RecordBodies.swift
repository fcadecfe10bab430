import Foundation
import LayoutKit
public import NIOCore

/// Record bodies and heads as buffers ready to write, kept per event loop: a record answered again (a hot page's
/// misses and revalidations through a CDN) goes out without being copied into a buffer again, and its head (200 or
/// 304) without being written again within the same second. The page book holds records as
/// arrays, sized to their bytes (a buffer's storage is rounded up to a power of two: a 48 KB record would take
/// 64 KB); what is written to a socket must be a buffer. Each loop keeps at most `maxBytesPerLoop` of buffers (their
/// storage counted), the oldest let go first; a body asked for off the group's loops is copied.
public final class RecordBodies: Sendable {
    /// A body: the record's hash and its encoding (the same hash is the same bytes).
    struct Key: Hashable {
        let hash: ContentHash
        let gzip: Bool
    }

    /// A head: the representation's key and whether it is a 304 (the `Cache-Control` is checked apart: the same
    /// record is a published page's or a navigation state's).
    struct HeadKey: Hashable {
        let body: Key
        let notModified: Bool
    }

    /// Per loop, 4 MiB: the hottest records of a page-cache budget, a fixed cost beside it.
    public static let maxBytesPerLoop = 4 << 20
    /// Per loop, the heads of at most so many representations a second (about 300 bytes each).
    static let maxHeadsPerLoop = 1024

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

    /// The head of `answer` (kept alive, nothing added) for the representation `key`: the current loop's, when it
    /// made it this second with the same `Cache-Control`; else written, and kept for the rest of the second (its
    /// `Date` is the second's). Nil off the group's loops: the connection writes the head itself.
    func head(_ key: HeadKey, cacheControl: String, of answer: HTTPAnswer) -> ByteBuffer? {
        byLoop.current?.head(key, cacheControl: cacheControl, of: answer, second: time(nil))
    }

    /// `answer` (a record's 200 or 304, `body`'s representation) carrying the head `head` keeps for it.
    func keepingHead(_ answer: HTTPAnswer, of body: Key, cacheControl: String) -> HTTPAnswer {
        var answer = answer
        answer.preparedHead = head(
            HeadKey(body: body, notModified: answer.status == .notModified), cacheControl: cacheControl, of: answer)
        return answer
    }
}

/// One loop's bodies; touched only on its loop.
final class LoopBodies: @unchecked Sendable {
    private let maxBytes: Int
    private var held: [RecordBodies.Key: ByteBuffer] = [:]
    private var order = CircularBuffer<RecordBodies.Key>()
    private var bytes = 0
    /// This second's heads (all let go when the second changes: their `Date` would be wrong).
    private var heads: [RecordBodies.HeadKey: (cacheControl: String, head: ByteBuffer)] = [:]
    private var headsSecond: time_t = 0

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    func head(
        _ key: RecordBodies.HeadKey, cacheControl: String, of answer: HTTPAnswer, second: time_t
    ) -> ByteBuffer {
        if second != headsSecond {
            heads.removeAll(keepingCapacity: true)
            headsSecond = second
        }
        if let held = heads[key], held.cacheControl == cacheControl { return held.head }
        var head = ByteBuffer()
        answer.writeHead(keepAlive: true, into: &head)
        if heads.count < RecordBodies.maxHeadsPerLoop { heads[key] = (cacheControl, head) }
        return head
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
