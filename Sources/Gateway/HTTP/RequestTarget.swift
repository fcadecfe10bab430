/// A request's target as the gateway routes it: the path, whether a query follows, and under `/v1/layouts/` the key
/// as written and whether its stream is asked for. Read as bytes: every GET of a record comes this way.
struct RequestTarget {
    /// What a path under `/v1/layouts/` asks for.
    enum Layouts {
        /// `/v1/layouts/{key}` (`stream` false) or `/v1/layouts/{key}/changes` (true).
        case page(key: Substring, stream: Bool)
        /// Anything else under the prefix (`/v1/layouts/a/b`, `/v1/layouts/a/`).
        case malformed
    }

    static let prefix: StaticString = "/v1/layouts/"
    static let changesSuffix: StaticString = "changes"

    /// The target up to its query.
    let path: Substring
    let hasQuery: Bool
    /// nil: the path is not under `/v1/layouts/`.
    let layouts: Layouts?

    init(_ uri: String) {
        let utf8 = uri.utf8
        let query = utf8.firstIndex(of: UInt8(ascii: "?"))
        path = uri[..<(query ?? uri.endIndex)]
        hasQuery = query != nil
        let prefixCount = Self.prefix.utf8CodeUnitCount
        guard Self.starts(path.utf8, with: Self.prefix) else {
            layouts = nil
            return
        }
        let rest = path[utf8.index(path.startIndex, offsetBy: prefixCount)...]
        guard let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) else {
            layouts = .page(key: rest, stream: false)
            return
        }
        let tail = rest.utf8[utf8.index(after: slash)...]
        let isStream =
            tail.count == Self.changesSuffix.utf8CodeUnitCount && Self.starts(tail, with: Self.changesSuffix)
        layouts = isStream ? .page(key: rest[..<slash], stream: true) : .malformed
    }

    /// Whether `bytes` begin with `prefix`.
    private static func starts(_ bytes: Substring.UTF8View, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: count)
        return bytes.withContiguousStorageIfAvailable { $0.prefix(count).elementsEqual(expected) }
            ?? bytes.prefix(count).elementsEqual(expected)
    }
}
