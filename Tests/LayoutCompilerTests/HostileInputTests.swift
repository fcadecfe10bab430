import Foundation
import LayoutCompiler
import LayoutJSON
import TestSupport
import Testing

/// Generated hostile inputs: every one gets a clean failure or a valid record, never a crash or a hang.
/// Time bounds here are hang detectors (orders of magnitude above normal), not speed targets.
@Suite struct HostileInputTests {
    let compiler = try! makeDefaultCompiler()

    @Test func truncationAtEveryStructuralPositionOfASample() throws {
        let sample = Fixtures.bytes("samples/search-page.json")
        let structural: Set<UInt8> = [
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\""),
        ]
        var cuts = 0
        let start = Date()
        for (i, b) in sample.enumerated() where structural.contains(b) && i + 1 < sample.count {
            let prefix = Array(sample[0...i])
            guard case .failure(let failure) = compiler.compile(prefix) else {
                Issue.record("a prefix of \(i + 1) bytes compiled")
                continue
            }
            #expect(failure.code == .invalidJSON)
            #expect((failure.offset ?? Int.max) <= prefix.count)
            cuts += 1
        }
        #expect(cuts > 5_000)
        #expect(Date().timeIntervalSince(start) < 120, "truncations took too long: a hang?")
    }

    @Test func duplicateKeysTakeTheFirstOccurrence() throws {
        let compiled = try compiler.compile(Array(#"{"@type":"A","name":"first","@type":"B","name":"second"}"#.utf8))
            .get()
        #expect(compiled.record.sections.first?.type == "A")
        #expect(compiled.record.page.name == "first")
        // The model is still copied byte for byte, duplicates included.
        #expect(
            String(decoding: compiled.bytes, as: UTF8.self).contains(
                #""model":{"@type":"A","name":"first","@type":"B","name":"second"}"#))
    }

    @Test(arguments: ["[]", "\"x\"", "1", "true", "null", "[{\"@type\":\"A\"}]"])
    func nonObjectRootsAreNotAssemblerResponses(text: String) {
        guard case .failure(let f) = compiler.compile(Array(text.utf8)) else {
            Issue.record("\(text) compiled")
            return
        }
        #expect(f.code == .notAssemblerResponse)
    }

    @Test func bigInputsStayWithinBounds() throws {
        // An 8 MB string value, 200k flat content items, a 5,000-digit number: all compile, none hangs.
        let start = Date()
        let big = #"{"@type":"X","text":""# + String(repeating: "é", count: 4 << 20) + #""}"#
        #expect(try compiler.compile(Array(big.utf8)).get().record.sections.count == 1)
        let flat =
            #"{"@type":"Page","contents":["#
            + Array(repeating: #"{"@type":"T"}"#, count: 200_000).joined(separator: ",") + "]}"
        #expect(try compiler.compile(Array(flat.utf8)).get().record.sections.count == 200_001)
        let digits =
            #"{"@type":"ResultsList","totalNumRecs":"# + String(repeating: "9", count: 5_000) + #","records":[]}"#
        #expect(try compiler.compile(Array(digits.utf8)).get().record.sections.first?.placeholder?.kind == .noResults)
        #expect(Date().timeIntervalSince(start) < 120, "big inputs took too long: a hang?")
    }
}

private func makeDefaultCompiler() throws -> LayoutCompiler { try compiler(file: "config/default.yaml") }
