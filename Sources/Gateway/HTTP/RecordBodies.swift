import LayoutKit
public import NIOCore

/// Record bodies as buffers ready to write, kept per event loop: a record answered again (a hot page's misses and
/// revalidations through a CDN) goes out without being copied into a buffer again. The page book holds records as
/// arrays, sized to their bytes (a buffer's storage is rounded up to a power of two: a 48 KB record would take
/// 64 KB); what is written to a socket must be a buffer. Each loop keeps at most `maxBytesPerLoop` of buffers (their
/// storage counted), the oldest let go first; a body asked for off the group's loops is copied.
public final class RecordBodies: Sendable {
    /// A body: the record's hash and its encoding (the same hash is the same bytes).
    struct Key: Hashable {
        let hash: ContentHash
        let gzip: Bool
    }

    /// Per loop, 4 MiB: the hottest records of a page-cache budget, a fixed cost beside it.
    public static let maxBytesPerLoop = 4 << 20

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
}

/// One loop's bodies; touched only on its loop.
final class LoopBodies: @unchecked Sendable {
    private let maxBytes: Int
    private var held: [RecordBodies.Key: ByteBuffer] = [:]
    private var order = CircularBuffer<RecordBodies.Key>()
    private var bytes = 0

    init(maxBytes: Int) { self.maxBytes = maxBytes }

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
