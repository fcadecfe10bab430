public import LayoutKit
public import NIOCore

/// One event as every stream writes it, made once and shared: the same bytes framed as an HTTP/1.1 chunk and bare
/// (HTTP/1.0 streams end with the connection, RFC 9112 §6.3), with what a stream needs to decide whether to write
/// it. Writing it to N streams is N writes of the same buffers: nothing is copied per stream (a class: handed to
/// every stream by one reference).
public final class EventBytes: Sendable {
    public let event: Kind
    public let chunked: ByteBuffer
    public let plain: ByteBuffer
    /// When the input it came from was written to Kafka (ms since the epoch), for the freshness histograms.
    public let sourceTimeMs: Int64?

    /// What the event does to a client.
    public enum Kind: Sendable, Equatable {
        case record(StreamPosition)
        case changeSet(base: ContentHash?, target: StreamPosition)

        public var target: StreamPosition {
            switch self {
            case .record(let at): at
            case .changeSet(_, let target): target
            }
        }
    }

    public init(_ event: GatewayEvent, sourceTimeMs: Int64? = nil) {
        switch event {
        case .record(_, let at): self.event = .record(at)
        case .changeSet(_, let base, let target): self.event = .changeSet(base: base, target: target)
        }
        let bytes = event.serverSentEvent
        (chunked, plain) = Self.frames(bytes)
        self.sourceTimeMs = sourceTimeMs
    }

    /// `bytes` as one chunk of a chunked body, and as they are.
    public static func frames(_ bytes: [UInt8]) -> (chunked: ByteBuffer, plain: ByteBuffer) {
        let head = Array((String(bytes.count, radix: 16) + "\r\n").utf8)
        var chunked = ByteBuffer()
        chunked.reserveCapacity(head.count + bytes.count + 2)
        chunked.writeBytes(head)
        chunked.writeBytes(bytes)
        chunked.writeBytes([0x0D, 0x0A])
        return (chunked, ByteBuffer(bytes: bytes))
    }

    /// The heartbeat comment, framed both ways.
    public static let heartbeat = frames(GatewayEvent.heartbeat)
    /// The last chunk of a chunked body (a stream ended by the gateway).
    public static let lastChunk = ByteBuffer(string: "0\r\n\r\n")
}
