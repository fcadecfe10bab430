#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Why the ops endpoints could not listen here (e.g. "Address already in use"), found by binding every address
    /// the host resolves to and letting go at once; nil when they can (port 0 always can).
    public func bindProblem() -> String? {
        guard port != 0 else { return nil }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else { return String(cString: gai_strerror(status)) }
        defer { freeaddrinfo(first) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let e = entry {
            let fd = socket(e.pointee.ai_family, e.pointee.ai_socktype, e.pointee.ai_protocol)
            if fd >= 0 {
                var one: Int32 = 1
                _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
                let bound = bind(fd, e.pointee.ai_addr, e.pointee.ai_addrlen)
                let error = errno
                close(fd)
                if bound != 0 { return String(cString: strerror(error)) }
            }
            entry = e.pointee.ai_next
        }
        return nil
    }
}
