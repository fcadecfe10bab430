import Foundation
import LayoutJSON
import LayoutKit
import NIOCore
import NIOHTTP1

/// A record as an HTTP answer: the same rules for a published page and a navigation state from the origin.
enum RecordRepresentation {
    /// A record as asked for: 304 for a matching `If-None-Match`, else the record (gzip from `gzipped` when it is
    /// accepted and worth it), with one strong `ETag` per encoding.
    static func answer(
        _ record: [UInt8], hash: ContentHash, _ head: HTTPRequestHead, cacheControl: String,
        _ metrics: GatewayMetrics, gzipped: () -> [UInt8]?
    ) -> HTTPAnswer {
        metrics.recordRequests.increment()
        let gzip = Self.acceptsGzip(head.headers["accept-encoding"].first) && record.count > 256
        // One strong tag per representation: a cache holding both encodings never confuses them.
        let etag = gzip ? "\"\(hash)-gzip\"" : "\"\(hash)\""
        var headers: [(String, String)] = [
            ("etag", etag), ("cache-control", cacheControl), ("vary", "Accept-Encoding"),
        ]
        if let match = head.headers["if-none-match"].first, Self.matches(match, hash) {
            metrics.notModified.increment()
            return HTTPAnswer(.notModified, headers: headers)
        }
        headers.append(("content-type", Wire.recordContentType))
        var body = record
        if gzip, let compressed = gzipped() {
            headers.append(("content-encoding", "gzip"))
            body = compressed
        } else if gzip {
            headers[0] = ("etag", "\"\(hash)\"")
        }
        if head.method != .HEAD { metrics.bytesSent.increment(by: Int64(body.count)) }
        return HTTPAnswer(.ok, headers: headers, body: ByteBuffer(bytes: body))
    }

    /// Whether an `If-None-Match` value names a representation of the record with `hash` (a list, weak tags, either
    /// encoding's tag, and `*` included).
    static func matches(_ header: String, _ hash: ContentHash) -> Bool {
        let plain = "\"\(hash)\""
        let gzip = "\"\(hash)-gzip\""
        return header.split(separator: ",").contains { tag in
            var t = tag.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("W/") { t.removeFirst(2) }
            return t == "*" || t == plain || t == gzip
        }
    }

    /// Whether `Accept-Encoding` takes gzip (and does not refuse it with `q=0`).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.lowercased().split(separator: ",").contains { item in
            let fields = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.first == "gzip" || fields.first == "*" else { return false }
            let q = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) }
            return q.map { $0 > 0 } ?? true
        }
    }
}
