import Foundation
import TestSupport
import Testing

/// Standard input is one response a line; a pretty-printed response or responses run together on one line get one
/// line of advice first, then the errors of a handful of lines, then how many more failed that way. A file holding
/// one response a line gets the opposite advice: pipe it on stdin.
@Suite struct StandardInputHintTests {
    static func advice(_ err: String) -> [Substring] {
        err.split(separator: "\n").filter { $0.contains("stdin is one response a line") }
    }

    @Test func aPrettyPrintedResponseIsNamedFirstWithAHandfulOfLines() throws {
        let pretty = String(decoding: Fixtures.bytes("samples/search-page.json"), as: UTF8.self)
            .replacingOccurrences(of: ",\"", with: ",\n  \"").replacingOccurrences(of: "{", with: "{\n")
        let lines = pretty.split(separator: "\n").count
        #expect(lines > 100)
        let r = try runCLI(["compile"], stdin: pretty)
        #expect(r.status == 1)
        let said = r.err.split(separator: "\n")
        #expect(Self.advice(r.err).count == 1)
        #expect(said.first?.contains("stdin holds pieces of a response") == true, "\(said.prefix(3))")
        #expect(said.first?.contains("pass the file as an argument") == true)
        #expect(said.filter { $0.contains("stdin:") }.count <= 3, "\(said.count) lines said")
        #expect(said.count <= 8, "\(said.count) lines said: \(said.prefix(10))")
        #expect(
            said.contains { $0.contains("lines of stdin held a piece of a response; the errors of") },
            "\(said.suffix(3))")
    }

    @Test func responsesRunTogetherAreNamedOnce() throws {
        let a = String(decoding: Fixtures.bytes("samples/search-page.json"), as: UTF8.self)
        let b = String(decoding: Fixtures.bytes("samples/grouped-results.json"), as: UTF8.self)
        let joined = a.trimmingCharacters(in: .newlines) + b.trimmingCharacters(in: .newlines) + "\n"
        let r = try runCLI(["compile"], stdin: joined)
        #expect(r.status == 1)
        let said = Self.advice(r.err)
        #expect(said.count == 1 && said[0].contains("stdin holds responses run together"), "\(said)")
        // Good NDJSON gets no advice.
        let good = try runCLI(["compile"], stdin: a.trimmingCharacters(in: .newlines) + "\n")
        #expect(good.status == 0 && Self.advice(good.err).isEmpty, "\(good.err)")
    }

    /// `compile FILE` and `check CONFIG FILE` with a file of one response a line: pipe it on stdin. `check FILE.ndjson`
    /// takes the file for responses, not for the config.
    @Test func aFileOfOneResponseALineIsToBePipedOnStdin() throws {
        let lines = try ["search-page", "grouped-results"].map { name -> String in
            let object = try JSONSerialization.jsonObject(with: Data(Fixtures.bytes("samples/\(name).json")))
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        try inDirectory(["responses.ndjson": lines.joined(separator: "\n") + "\n"]) { dir in
            let file = dir.appendingPathComponent("responses.ndjson").path
            let compiled = try runCLI(["compile", file])
            #expect(compiled.status == 1)
            #expect(
                compiled.err.contains(
                    "holds one response a line (NDJSON), and a file is read as one response: pipe it on stdin (layout-worker compile < \(file))"
                ), "\(compiled.err)")
            let checked = try runCLI(["check", Fixtures.path("config/default.yaml"), file])
            #expect(checked.out.contains("pipe it on stdin (layout-worker check CONFIG - < \(file))"), "\(checked.out)")
            let alone = try runCLI(["check", file])
            #expect(
                !alone.out.contains("yaml-syntax") && !alone.err.contains("yaml-syntax"), "\(alone.out)\(alone.err)")
            #expect(alone.out.contains("pipe it on stdin"), "\(alone.out)")
            // Piped as the advice says, both responses compile.
            let piped = try runCLI(["compile"], stdin: lines.joined(separator: "\n") + "\n")
            #expect(piped.status == 0 && piped.out.split(separator: "\n").count == 2, "\(piped.err)")
        }
    }
}
