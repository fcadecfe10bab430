/// Reads a `text/event-stream` as it arrives: bytes in, whole events out (the WHATWG rules a feed needs: `event`,
/// `id`, `data` lines joined with line breaks, comments and `retry` skipped, any line ending).
public struct ServerSentEvents: Sendable {
    /// One event.
    public struct Event: Sendable, Equatable {
        public var name: String
        public var id: String?
        public var data: [UInt8]

        public init(name: String, id: String?, data: [UInt8]) {
            self.name = name
            self.id = id
            self.data = data
        }
    }

    private var line: [UInt8] = []
    private var name = ""
    private var id: String?
    private var data: [UInt8]?
    private var lastWasCR = false

    public init() {}

    /// The events `bytes` completes.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var out: [Event] = []
        for b in bytes {
            if b == 0x0A && lastWasCR {
                lastWasCR = false
                continue
            }
            lastWasCR = b == 0x0D
            guard b == 0x0A || b == 0x0D else {
                line.append(b)
                continue
            }
            if let event = endLine() { out.append(event) }
        }
        return out
    }

    private mutating func endLine() -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            // A blank line ends an event (one without data is not dispatched).
            defer { (name, data) = ("", nil) }
            guard let data else { return nil }
            return Event(name: name.isEmpty ? "message" : name, id: id, data: data)
        }
        if line[0] == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var value = line[colon...].dropFirst()
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch field {
        case "event": name = String(decoding: value, as: UTF8.self)
        case "id": id = String(decoding: value, as: UTF8.self)
        case "data":
            if data != nil { data!.append(0x0A) }
            data = (data ?? []) + value
        default: break
        }
        return nil
    }
}
