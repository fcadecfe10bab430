/// Where the ops endpoints listen: `host:port`, `[ipv6]:port` or a host name; port 0 picks a free one.
public struct OpsAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `127.0.0.1:9464`, `0.0.0.0:9464`, `[::1]:9464`, `[::]:9464` or `localhost:9464`.
    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port)
        else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { return nil }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil  // an IPv6 address needs brackets: [::1]:9464
        }
        guard !host.isEmpty else { return nil }
        self.init(host: host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
