public import NIOHTTP1

/// A request to one of the project's plain HTTP endpoints (the ops probes, the preview): its method, path and query.
public struct PlainRequest: Sendable {
    public var method: HTTPMethod
    /// The path, without its query string.
    public var path: String
    /// The query string's parameters, percent-decoded (`+` is a space); the last of a name repeated wins.
    public var query: [String: String]

    public init(method: HTTPMethod, uri: String) {
        self.method = method
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts.first ?? "")
        query = [:]
        guard parts.count == 2 else { return }
        for pair in parts[1].split(separator: "&") {
            let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[Self.decoded(nameValue[0])] = nameValue.count == 2 ? Self.decoded(nameValue[1]) : ""
        }
    }

    /// `text` with `+` as a space and each `%XX` as its byte (a malformed escape is kept as it is).
    static func decoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
