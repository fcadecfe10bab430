public import LayoutKit

/// One server-sent event of a page's stream: the whole record, or a change set to apply; its `id` is where the
/// client is once it applied it (`StreamPosition`, sent back as `Last-Event-ID` to resume).
public enum GatewayEvent: Sendable, Equatable {
    case record([UInt8], at: StreamPosition)
    case changeSet([UInt8], base: ContentHash?, target: StreamPosition)

    /// Where a client is once it applied this event.
    public var target: StreamPosition {
        switch self {
        case .record(_, let at): at
        case .changeSet(_, _, let target): target
        }
    }

    /// The event on the wire: `event:` (`record` or `change-set`), `id:` and the JSON on one `data:` line (records
    /// and change sets are written on one line; any line break in them is split into `data:` lines all the same).
    public var serverSentEvent: [UInt8] {
        let (name, body): (String, [UInt8])
        switch self {
        case .record(let bytes, _): (name, body) = ("record", bytes)
        case .changeSet(let bytes, _, _): (name, body) = ("change-set", bytes)
        }
        var out = Array("event: \(name)\nid: \(target)\ndata: ".utf8)
        out.reserveCapacity(out.count + body.count + 2)
        for b in body {
            if b == 0x0A { out.append(contentsOf: Array("\ndata: ".utf8)) } else if b != 0x0D { out.append(b) }
        }
        out.append(contentsOf: [0x0A, 0x0A])
        return out
    }

    /// A comment line: keeps idle connections open through proxies.
    public static let heartbeat = Array(": heartbeat\n\n".utf8)
}
