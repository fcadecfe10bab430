import Foundation
import TestSupport
import Testing

/// Standard input is one response a line; a pretty-printed response or responses run together on one line get one
/// line of advice after the run, besides each line's own error.
@Suite struct StandardInputHintTests {
    static func advice(_ err: String) -> [Substring] {
        err.split(separator: "\n").filter { $0.contains("stdin is one response a line") }
    }

    @Test func aPrettyPrintedResponseIsNamedOnce() throws {
        let pretty = String(decoding: Fixtures.bytes("samples/search-page.json"), as: UTF8.self)
            .replacingOccurrences(of: ",\"", with: ",\n  \"").replacingOccurrences(of: "{", with: "{\n")
        #expect(pretty.split(separator: "\n").count > 100)
        let r = try runCLI(["compile"], stdin: pretty)
        #expect(r.status == 1)
        let said = Self.advice(r.err)
        #expect(said.count == 1 && said[0].contains("held a piece of a response"), "\(said)")
        #expect(said.first?.contains("pass the file as an argument") == true)
    }

    @Test func responsesRunTogetherAreNamedOnce() throws {
        let a = String(decoding: Fixtures.bytes("samples/search-page.json"), as: UTF8.self)
        let b = String(decoding: Fixtures.bytes("samples/grouped-results.json"), as: UTF8.self)
        let joined = a.trimmingCharacters(in: .newlines) + b.trimmingCharacters(in: .newlines) + "\n"
        let r = try runCLI(["compile"], stdin: joined)
        #expect(r.status == 1)
        let said = Self.advice(r.err)
        #expect(said.count == 1 && said[0].contains("1 line of stdin held more than one response"), "\(said)")
        // Good NDJSON gets no advice.
        let good = try runCLI(["compile"], stdin: a.trimmingCharacters(in: .newlines) + "\n")
        #expect(good.status == 0 && Self.advice(good.err).isEmpty, "\(good.err)")
    }
}
