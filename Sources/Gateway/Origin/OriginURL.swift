/// The origin's base URL: `http://host[:port][/prefix]`, with no query, fragment or user info. States are fetched
/// from `prefix` + the state (a TLS origin is reached through a local proxy or sidecar).
public struct OriginURL: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int
    /// The path every state is put after, without a trailing `/` ("" for none).
    public let prefix: String

    /// Parses `text`; the error says what is wrong and what to pass.
    public init(parsing text: String) throws(OriginURLError) {
        guard text.hasPrefix("http://") else {
            throw OriginURLError(
                text,
                "it must start with http:// (the gateway speaks plain HTTP to its origin; put a TLS origin behind a local proxy)"
            )
        }
        let rest = text.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        var prefix = String(rest.dropFirst(authority.count))
        guard !authority.isEmpty, !authority.contains("@") else {
            throw OriginURLError(text, "it needs a host and no user info, e.g. http://assembler.internal:8080")
        }
        guard !prefix.contains("?"), !prefix.contains("#") else {
            throw OriginURLError(text, "it takes no query or fragment: states carry their own (format=json among them)")
        }
        while prefix.hasSuffix("/") { prefix.removeLast() }
        var host = String(authority), port = 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw OriginURLError(text, "an IPv6 host needs its ]")
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()), (1...65_535).contains(p) else {
                    throw OriginURLError(text, "the port must be a number from 1 to 65535")
                }
                port = p
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let p = Int(authority[authority.index(after: colon)...]), (1...65_535).contains(p) else {
                throw OriginURLError(text, "the port must be a number from 1 to 65535")
            }
            port = p
        }
        guard !host.isEmpty else { throw OriginURLError(text, "it needs a host") }
        self.host = host
        self.port = port
        self.prefix = prefix
    }

    /// The `Host` header.
    public var hostHeader: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? h : "\(h):\(port)"
    }

    public var description: String { "http://\(hostHeader)\(prefix)" }
}

/// An `--origin` that cannot be used.
public struct OriginURLError: Error, CustomStringConvertible {
    public let description: String

    init(_ text: String, _ why: String) { description = "--origin '\(text)': \(why)" }
}
