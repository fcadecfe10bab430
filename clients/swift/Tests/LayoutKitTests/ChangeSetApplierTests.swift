import LayoutKit
import Testing

/// The applier gives every target byte for byte from what the server really sends, and refuses what does not fit.
@Suite struct ChangeSetApplierTests {
    static let empty = #"{"version":2,"source":null,"page":null,"sections":[],"diagnostics":[]}"#

    @Test(.enabled(if: Fixtures.shared != nil, "\(Fixtures.missing)"))
    func everyFixtureGivesItsTargetExactly() throws {
        let fixtures = try #require(Fixtures.shared)
        #expect(fixtures.cases.count >= 200)
        for c in fixtures.cases {
            let out = try ChangeSetApplier().apply(c.changeSet, to: c.base)
            #expect(out == c.target, "\(c.name)")
            // A duplicate delivery finds its own target and changes nothing.
            if c.base != nil && c.base != c.target {
                #expect(try ChangeSetApplier().apply(c.changeSet, to: c.target) == c.target, "\(c.name) twice")
            }
        }
    }

    @Test(.enabled(if: Fixtures.shared != nil, "\(Fixtures.missing)"))
    func aBaseReadAsALineKeepsItsHash() throws {
        let fixtures = try #require(Fixtures.shared)
        let c = try #require(fixtures.cases.first { $0.base != nil && $0.base != $0.target })
        for end: [UInt8] in [[0x0A], [0x0D, 0x0A]] {
            #expect(try ChangeSetApplier().apply(c.changeSet, to: c.base! + end) == c.target, "\(end)")
        }
    }

    @Test(.enabled(if: Fixtures.shared != nil, "\(Fixtures.missing)"))
    func aStaleBaseAsksForTheFullRecord() throws {
        let fixtures = try #require(Fixtures.shared)
        let c = try #require(fixtures.cases.first { $0.base != nil && $0.base != $0.target })
        var stale = try #require(c.base)
        stale.insert(0x20, at: 1)
        #expect {
            try ChangeSetApplier().apply(c.changeSet, to: stale)
        } throws: { error in
            guard case .baseMismatch = error as? ChangeSetError else { return false }
            return "\(error)".contains("fetch the full record")
        }
    }

    @Test func malformedChangeSetsAreRefusedWithoutATrap() {
        let base = Array(Self.empty.utf8)
        let hash = ContentHash(of: base).description
        let cases = [
            "", "{", "[]", #"{"version":1}"#, #"{"version":2,"target":{"hash":"zz"},"base":null}"#,
            #"{"version":2,"target":{"hash":"\#(hash)"},"base":{"hash":"\#(hash)"},"record":{},"sections":{"deletes":[0]}}"#,
            #"{"version":2,"target":{"hash":"\#(hash)"},"base":{"hash":"\#(hash)"},"record":{},"sections":{"inserts":[{"index":5}]}}"#,
            #"{"version":2,"target":{"hash":"\#(hash)"},"base":{"hash":"\#(hash)"},"record":{"nope":1},"sections":{}}"#,
            #"{"version":2,"target":{"hash":"\#(hash)"},"base":{"hash":"\#(hash)"},"record":{},"sections":{"moves":[{"from":0,"to":0}]}}"#,
            #"{"version":2,"target":{"hash":"\#(hash)"},"base":null,"record":{"a":"\"#,
            #"{"version":2,"target":{"hash":"\#(hash)"},"base":null,"record":{],"sections":{}}"#,
            // Well-formed, but not a change set by its `kind`.
            #"{"version":2,"kind":"layout-record","target":{"hash":"\#(hash)"},"base":{"hash":"\#(hash)"},"record":{},"sections":{}}"#,
        ]
        for text in cases {
            #expect(throws: ChangeSetError.self, "\(text)") { try ChangeSetApplier().apply(Array(text.utf8), to: base) }
        }
        // The identity change set (nothing changed) is well-formed.
        let same = #"{"version":2,"target":{"hash":"\#(hash)"},"base":{"hash":"\#(hash)"},"record":{},"sections":{}}"#
        #expect(throws: Never.self) { try ChangeSetApplier().apply(Array(same.utf8), to: base) }
    }

    @Test func everyPrefixOfAChangeSetIsRefusedOrApplied() throws {
        // Truncated deliveries: each prefix of a real-shaped change set must throw (or, whole, apply), never trap.
        let record =
            #"{"version":2,"source":null,"page":{"type":"P"},"sections":[{"id":"a","path":"$","index":0,"type":"T","adaptor":"Generic","visible":true,"rows":[{"id":"r\u00e9","renderer":null,"model":{"n":[1,{"x":"]"}]}}]}],"diagnostics":[]}"#
        let bytes = Array(record.utf8)
        let cs = Array(
            #"{"version":2,"kind":"layout-change-set","key":"k","base":null,"target":{"offset":null,"hash":"\#(ContentHash(of: bytes))"},"record":{"page":{"type":"P"}},"sections":{"deletes":[],"inserts":[{"index":0,"section":{"id":"a","path":"$","index":0,"type":"T","adaptor":"Generic","visible":true,"rows":[{"id":"r\u00e9","renderer":null,"model":{"n":[1,{"x":"]"}]}}]}}],"moves":[],"updates":[],"paths":[]},"diagnostics":[]}"#
                .utf8)
        #expect(try ChangeSetApplier().apply(cs, to: nil) == bytes)
        for n in 0..<cs.count {
            #expect(throws: ChangeSetError.self) { try ChangeSetApplier().apply(Array(cs[..<n]), to: nil) }
        }
    }
}
