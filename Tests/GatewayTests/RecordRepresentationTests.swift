import LayoutKit
import Testing

@testable import Gateway

/// The request headers a record's answer depends on, read as bytes: `If-None-Match` and `Accept-Encoding`.
@Suite struct RecordRepresentationTests {
    let hash = ContentHash(value: 0x0123_4567_89ab_cdef)

    @Test func ifNoneMatchNamesEitherEncodingsTagInAList() {
        for header in [
            "\"0123456789abcdef\"", "\"0123456789abcdef-gzip\"", "W/\"0123456789abcdef\"", "*", " * ",
            "\"abc\", \"0123456789abcdef\"", "\"x\",\t W/\"0123456789abcdef-gzip\" ", ", ,\"0123456789abcdef\",",
            // A list as long as one tag, quoted at both ends, is still read as a list.
            "\"x\",*,\"yyyyyyyyyy\"",
        ] {
            #expect(RecordRepresentation.matches(header, hash), "\(header)")
        }
        for header in [
            "", "\"abc\"", "\"0123456789ABCDEF\"", "\"0123456789abcdef-gzipx\"", "\"0123456789abcdee\"",
            "0123456789abcdef", "\"0123456789abcdef", "w/\"0123456789abcdef\"", "\"0123456789abcdef-br\"", "**",
            "\"00123456789abcdef\"", "\"0123456789abcdef-gzop\"", "\"0123456789abcdef\"-gzip\"",
        ] {
            #expect(!RecordRepresentation.matches(header, hash), "\(header)")
        }
    }

    @Test func entityTagsAreTheHashInQuotesPerEncoding() {
        for value: UInt64 in [0, 1, 0x0123_4567_89ab_cdef, .max, 0xf000_0000_0000_000f] {
            let hash = ContentHash(value: value)
            #expect(RecordRepresentation.entityTag(hash, gzip: false) == "\"\(hash)\"")
            #expect(RecordRepresentation.entityTag(hash, gzip: true) == "\"\(hash)-gzip\"")
            #expect(RecordRepresentation.matches(RecordRepresentation.entityTag(hash, gzip: true), hash))
        }
    }

    @Test func targetsUnderTheLayoutsPathAreReadAsKeyAndStream() {
        func read(_ uri: String) -> String {
            let target = RequestTarget(uri)
            let query = target.hasQuery ? "?" : ""
            switch target.layouts {
            case nil: return "other \(target.path)\(query)"
            case .page(let key, let stream): return "\(stream ? "stream" : "record") \(key)\(query)"
            case .malformed: return "malformed\(query)"
            }
        }
        #expect(read("/v1/layouts/page-1") == "record page-1")
        #expect(read("/v1/layouts/a%2Fb/changes") == "stream a%2Fb")
        #expect(read("/v1/layouts/k?x=1") == "record k?")
        #expect(read("/v1/layouts/k/changes?x") == "stream k?")
        #expect(read("/v1/layouts/") == "record ")
        #expect(read("/v1/layouts/k/") == "malformed")
        #expect(read("/v1/layouts/k/changesx") == "malformed")
        #expect(read("/v1/layouts/k/changes/") == "malformed")
        #expect(read("/v1/layouts/k/other") == "malformed")
        #expect(read("/v1/layout") == "other /v1/layout")
        #expect(read("/healthz?x") == "other /healthz?")
        #expect(read("/v1/layouts/ключ") == "record ключ")
    }

    @Test func acceptEncodingTakesGzipUnlessRefused() {
        for header in [
            "gzip", "GZIP", "br, gzip;q=0.8", "*", "deflate , gzip ; q=1", "gzip;Q=0.5", "identity, *;q=0.1",
        ] {
            #expect(RecordRepresentation.acceptsGzip(header), "\(header)")
        }
        for header in [nil, "", "br", "gzip;q=0", "gzip; q=0.0", "x-gzip", "gzipx", "*;q=0", "identity"] {
            #expect(!RecordRepresentation.acceptsGzip(header), "\(header ?? "nil")")
        }
    }
}
