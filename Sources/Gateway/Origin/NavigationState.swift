import NIOHTTP1

/// A page key that names a navigation state on the origin: a path and query (the `target` of a record's `navigate`
/// action, as it stands), fetched as the origin's base URL + the state. Everything that could make the request reach
/// another host or another path than the one written is refused before any request: an absolute or scheme-relative
/// URL, user info, backslashes, `.` and `..` segments (percent-encoded ones too), encoded slashes and backslashes in
/// the path, control characters and white space (raw or encoded), fragments; and, with an allow-list, any path
/// outside it.
public struct NavigationState: Sendable, Equatable {
    /// The request target sent to the origin after the base URL's prefix: the key, with bytes outside ASCII
    /// percent-encoded (nothing else is rewritten).
    let target: String

    struct Refusal: Error, Equatable {
        let code: String
        let message: String

        /// What the app is answered (and counted): 404 outside the allowed paths, else 400.
        func answer(key: String, _ metrics: GatewayMetrics) -> HTTPAnswer {
            metrics.originAnswer("refused-key")
            return .error(code == "state-not-allowed" ? .notFound : .badRequest, code, message, key: key)
        }
    }

    /// Whether `key` is meant for the origin at all: a state starts with `/`; any other key is a published page's.
    static func isState(_ key: String) -> Bool { key.utf8.first == UInt8(ascii: "/") }

    static func parse(_ key: String, allowedPaths: [String]) -> Result<NavigationState, Refusal> {
        let bytes = Array(key.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return refuse("not-a-state", "a navigation state starts with /") }
        if bytes.count > 1, bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\") {
            return refuse("absolute-state", "a state is a path on the origin, not a URL of another host (//host)")
        }
        var target: [UInt8] = []
        target.reserveCapacity(bytes.count)
        var inPath = true
        for (i, b) in bytes.enumerated() {
            switch b {
            case 0..<0x21, 0x7F:
                return refuse("bad-state", "control characters and white space are not taken (byte \(i))")
            case UInt8(ascii: "\\"):
                return refuse("bad-state", "a backslash is not taken (byte \(i)): some servers read it as /")
            case UInt8(ascii: "#"):
                return refuse("bad-state", "a fragment (#) is never sent to a server (byte \(i))")
            case UInt8(ascii: "@") where inPath:
                return refuse("bad-state", "an @ in the path is not taken (byte \(i))")
            case UInt8(ascii: "?"):
                inPath = false
            case UInt8(ascii: "%"):
                guard i + 2 < bytes.count, let v = hexPair(bytes[i + 1], bytes[i + 2]) else {
                    return refuse("bad-state", "a % not followed by two hex digits (byte \(i))")
                }
                if v < 0x21 || v == 0x7F {
                    return refuse("bad-state", "an encoded control character or white space (byte \(i))")
                }
                if inPath, v == UInt8(ascii: "/") || v == UInt8(ascii: "\\") {
                    return refuse("bad-state", "an encoded slash or backslash in the path (byte \(i)) would change it")
                }
            default: break
            }
            if b >= 0x80 {
                target.append(UInt8(ascii: "%"))
                target.append(hexDigit(b >> 4))
                target.append(hexDigit(b & 0xF))
            } else {
                target.append(b)
            }
        }
        let path = bytes.prefix { $0 != UInt8(ascii: "?") }
        for segment in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let decoded = percentDecoded(segment)
            if decoded == [UInt8(ascii: ".")] || decoded == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                return refuse("bad-state", "a . or .. segment (encoded or not) is not taken")
            }
        }
        if !allowedPaths.isEmpty {
            let p = String(decoding: path, as: UTF8.self)
            let allowed = allowedPaths.contains { prefix in
                p == prefix || p.hasPrefix(prefix.hasSuffix("/") ? prefix : prefix + "/")
            }
            guard allowed else {
                return refuse(
                    "state-not-allowed",
                    "this gateway fetches states under \(allowedPaths.joined(separator: ", ")) only (--origin-paths)")
            }
        }
        return .success(NavigationState(target: String(decoding: target, as: UTF8.self)))
    }

    private static func refuse(_ code: String, _ message: String) -> Result<NavigationState, Refusal> {
        .failure(Refusal(code: code, message: message))
    }

    private static func percentDecoded(_ s: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == UInt8(ascii: "%"), i + 2 < s.endIndex, let v = hexPair(s[i + 1], s[i + 2]) {
                out.append(v)
                i += 3
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return out
    }

    private static func hexPair(_ a: UInt8, _ b: UInt8) -> UInt8? {
        guard let h = RequestKey.hex(a), let l = RequestKey.hex(b) else { return nil }
        return h << 4 | l
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "A") + v - 10 }
}
