import Foundation

/// A request's target as the gateway routes it: the path, whether a query follows, whether it is `/v1/compile`, and
/// under `/v1/layouts/` the key as written and whether its stream is asked for. Read as bytes in one pass, its
/// parts made only when asked for: every GET of a record comes this way.
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
    /// `POST /v1/compile`'s path.
    static let compilePath: StaticString = "/v1/compile"

    private let uri: String
    private let found: Scan

    init(_ uri: String) {
        self.uri = uri
        found =
            uri.utf8.withContiguousStorageIfAvailable(Self.scan) ?? Array(uri.utf8).withUnsafeBufferPointer(Self.scan)
    }

    /// The target up to its query.
    var path: Substring { uri[..<index(found.pathEnd)] }
    var hasQuery: Bool { found.pathEnd < uri.utf8.count }
    /// Whether the path is `/v1/compile`.
    var isCompile: Bool { found.isCompile }
    /// nil: the path is not under `/v1/layouts/`.
    var layouts: Layouts? {
        switch found.layouts {
        case nil: nil
        case .malformed?: .malformed
        case .page(let key, let stream)?: .page(key: uri[index(key.lowerBound)..<index(key.upperBound)], stream: stream)
        }
    }

    private func index(_ offset: Int) -> String.Index { uri.utf8.index(uri.utf8.startIndex, offsetBy: offset) }

    /// Where a target's parts are, as byte offsets.
    private struct Scan {
        enum Layouts {
            case page(key: Range<Int>, stream: Bool)
            case malformed
        }
        /// Where the path ends: the query's `?`, or the end.
        let pathEnd: Int
        var isCompile = false
        var layouts: Layouts?
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        let pathEnd = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        let path = UnsafeBufferPointer(rebasing: bytes[..<pathEnd])
        guard Self.starts(path, with: Self.prefix) else {
            return Scan(
                pathEnd: pathEnd,
                isCompile: path.count == Self.compilePath.utf8CodeUnitCount && Self.starts(path, with: Self.compilePath)
            )
        }
        let keyStart = Self.prefix.utf8CodeUnitCount
        guard let slash = path[keyStart...].firstIndex(of: UInt8(ascii: "/")) else {
            return Scan(pathEnd: pathEnd, layouts: .page(key: keyStart..<pathEnd, stream: false))
        }
        let tail = UnsafeBufferPointer(rebasing: path[(slash + 1)...])
        guard tail.count == Self.changesSuffix.utf8CodeUnitCount, Self.starts(tail, with: Self.changesSuffix) else {
            return Scan(pathEnd: pathEnd, layouts: .malformed)
        }
        return Scan(pathEnd: pathEnd, layouts: .page(key: keyStart..<slash, stream: true))
    }

    /// Whether `bytes` begin with `prefix`.
    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        return memcmp(bytes.baseAddress!, prefix.utf8Start, count) == 0
    }
}
