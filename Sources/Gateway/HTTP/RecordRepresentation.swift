import LayoutJSON
import LayoutKit
import NIOCore
import NIOHTTP1

/// A record as an HTTP answer: the same rules for a published page and a navigation state from the origin.
enum RecordRepresentation {
    /// `Cache-Control` of a published page's record: a shared cache may keep it a second, then revalidates with its
    /// `ETag`; never serves it stale meanwhile (Varnish's grace and CDNs' stale-while-revalidate would otherwise hand
    /// out a superseded record for seconds).
    static let publishedCacheControl =
        "public, max-age=1, must-revalidate, stale-while-revalidate=0, stale-if-error=0"

    /// A record as asked for: 304 for a matching `If-None-Match`, else the record (gzip from `gzipped` when it is
    /// accepted and worth it), with one strong `ETag` per encoding. On an event loop the answer (its head written)
    /// is kept for the rest of the second, so a hot record's revalidations and misses build nothing again.
    static func answer(
        _ record: [UInt8], hash: ContentHash, _ head: HTTPRequestHead, cacheControl: String,
        _ metrics: GatewayMetrics, bodies: RecordBodies, gzipped: () -> [UInt8]?
    ) -> HTTPAnswer {
        let gzip = Self.acceptsGzip(head.headers.first(name: "accept-encoding")) && record.count > 256
        if let match = head.headers.first(name: "if-none-match"), Self.matches(match, hash) {
            metrics.recordAnswered(notModified: true, bytes: 0)
            let key = RecordBodies.AnswerKey(body: .init(hash: hash, gzip: gzip), notModified: true)
            return bodies.answer(key, cacheControl: cacheControl, body: nil) {
                HTTPAnswer(.notModified, headers: Self.headers(hash, gzip: gzip, cacheControl))
            }
        }
        var sent = (bytes: record, gzip: false)
        if gzip, let compressed = gzipped() { sent = (compressed, true) }
        let representation = RecordBodies.Key(hash: hash, gzip: sent.gzip)
        let body = bodies.buffer(representation, sent.bytes)
        metrics.recordAnswered(notModified: false, bytes: head.isHEAD ? 0 : body.readableBytes)
        return bodies.answer(.init(body: representation, notModified: false), cacheControl: cacheControl, body: body) {
            var headers = Self.headers(hash, gzip: sent.gzip, cacheControl)
            headers.append(("content-type", Wire.recordContentType))
            if sent.gzip { headers.append(("content-encoding", "gzip")) }
            return HTTPAnswer(.ok, headers: headers, body: body)
        }
    }

    /// The headers every answer about the record has: one strong tag per representation (a cache holding both
    /// encodings never confuses them), `cacheControl`, and `Vary`.
    private static func headers(_ hash: ContentHash, gzip: Bool, _ cacheControl: String) -> [(String, String)] {
        [("etag", entityTag(hash, gzip: gzip)), ("cache-control", cacheControl), ("vary", "Accept-Encoding")]
    }

    /// The record's strong tag: `"HASH"`, or `"HASH-gzip"` for its gzip (16 lowercase hex digits).
    static func entityTag(_ hash: ContentHash, gzip: Bool) -> String {
        let suffix: StaticString = "-gzip"
        let count = 18 + (gzip ? suffix.utf8CodeUnitCount : 0)
        return String(unsafeUninitializedCapacity: count) { out in
            let digits = UInt8(ascii: "0")
            out[0] = UInt8(ascii: "\"")
            for i in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: hash.value >> UInt64(60 - 4 * i)) & 0x0F
                out[1 + i] = nibble < 10 ? digits + nibble : UInt8(ascii: "a") + nibble - 10
            }
            if gzip {
                for i in 0..<suffix.utf8CodeUnitCount { out[17 + i] = suffix.utf8Start[i] }
            }
            out[count - 1] = UInt8(ascii: "\"")
            return count
        }
    }

    /// Whether an `If-None-Match` value names a representation of the record with `hash` (a list, weak tags, either
    /// encoding's tag, and `*` included). Read byte by byte: a revalidation is answered in a few microseconds.
    static func matches(_ header: String, _ hash: ContentHash) -> Bool {
        var header = header
        return header.withUTF8 { bytes in
            // The usual value, one of the gateway's own tags as it was sent: its digits read in place.
            if let value = Self.singleTag(bytes) { return value == hash.value }
            var found = false
            HeaderList.forEach(in: bytes) { item in
                var tag = item
                if tag.count >= 2, tag[tag.startIndex] == UInt8(ascii: "W"),
                    tag[tag.startIndex + 1] == UInt8(ascii: "/")
                {
                    tag = tag.dropFirst(2)
                }
                if tag.count == 1, tag.first == UInt8(ascii: "*") {
                    found = true
                } else if tag.count >= 18, tag.first == UInt8(ascii: "\""), tag.last == UInt8(ascii: "\"") {
                    let inner = tag.dropFirst().dropLast()
                    let digits = inner.prefix(16)
                    let suffix = inner.dropFirst(16)
                    if suffix.isEmpty || suffix.elementsEqual("-gzip".utf8), Self.hex(digits) == hash.value {
                        found = true
                    }
                }
                return !found
            }
            return found
        }
    }

    /// Whether `Accept-Encoding` takes gzip (and does not refuse it with `q=0`).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard var header else { return false }
        return header.withUTF8 { bytes in
            var accepted = false
            HeaderList.forEach(in: bytes) { item in
                var fields = item.split(separator: UInt8(ascii: ";")).map(HeaderList.trimmed)
                guard let coding = fields.first,
                    HeaderList.equalsIgnoringCase(coding, "gzip") || HeaderList.equalsIgnoringCase(coding, "*")
                else { return true }
                fields.removeFirst()
                let q = fields.first {
                    $0.count >= 2 && ($0.first == UInt8(ascii: "q") || $0.first == UInt8(ascii: "Q"))
                }
                .flatMap { f -> Double? in
                    let rest = f.dropFirst()
                    guard rest.first == UInt8(ascii: "=") else { return nil }
                    return Double(String(decoding: rest.dropFirst(), as: UTF8.self))
                }
                accepted = q.map { $0 > 0 } ?? true
                return !accepted
            }
            return accepted
        }
    }

    /// The value of `bytes` when they are one tag as the gateway writes it (`"HASH"` or `"HASH-gzip"`), else nil.
    private static func singleTag(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let quote = UInt8(ascii: "\"")
        guard bytes.count == 18 || bytes.count == 23, bytes[0] == quote, bytes[bytes.count - 1] == quote else {
            return nil
        }
        if bytes.count == 23, !bytes[17..<22].elementsEqual("-gzip".utf8) { return nil }
        return hex(bytes[1..<17])
    }

    /// The value of 16 lowercase hex digits as the gateway writes them (tags compare byte for byte), or nil.
    private static func hex(_ digits: HeaderList.Item) -> UInt64? {
        guard digits.count == 16 else { return nil }
        var value: UInt64 = 0
        for b in UnsafeBufferPointer(rebasing: digits) {
            let digit: UInt8
            if b &- UInt8(ascii: "0") < 10 {
                digit = b &- UInt8(ascii: "0")
            } else if b &- UInt8(ascii: "a") < 6 {
                digit = b &- UInt8(ascii: "a") &+ 10
            } else {
                return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
