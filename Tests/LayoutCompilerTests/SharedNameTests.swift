import Adaptors
import ContentTree
import Foundation
import LayoutCompiler
import TestSupport
import Testing

/// Names defined once in Swift and repeated outside it (the config schema, README) must agree with the definition.
@Suite struct SharedNameTests {
    /// Where the mapping-config manual lists them.
    private let readme = Fixtures.text("docs/mapping-config.md")

    /// The backticked names in the first column of README's table whose header row starts with `header`.
    private func firstColumn(ofTableStarting header: String, in text: String) -> Set<String> {
        var names: Set<String> = []
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(header) {
                inTable = true
                continue
            }
            guard inTable else { continue }
            guard line.hasPrefix("|") else { break }
            let cell = line.split(separator: "|", omittingEmptySubsequences: true).first ?? ""
            for match in cell.matches(of: /`([^`]+)`/) { names.insert(String(match.1)) }
        }
        return names
    }

    @Test func adaptorNamesAgreeWithTheSchemaAndREADME() throws {
        let names = Set(AdaptorName.allCases.map(\.rawValue))
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("schemas/mapping-config.schema.json")))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let adaptorName = try #require(defs["adaptorName"] as? [String: Any])
        #expect(Set(try #require(adaptorName["enum"] as? [String])) == names)
        #expect(firstColumn(ofTableStarting: "| adaptor |", in: readme) == names)
        // Every name is one the registry builds.
        for name in AdaptorName.allCases {
            #expect(AdaptorRegistry.builtIn(named: name.rawValue)?.name == name.rawValue)
        }
    }

    /// Every diagnostic code (the one list, `DiagnosticCode`) is documented, backticked, in the config manual.
    @Test func everyDiagnosticCodeIsDocumented() {
        #expect(DiagnosticCode.allCases.count >= 31)
        for code in DiagnosticCode.allCases {
            #expect(readme.contains("`\(code.rawValue)`"), "docs/mapping-config.md does not list \(code.rawValue)")
        }
    }

    @Test func compileFailureCodesAgreeWithREADME() throws {
        let listed = try #require(DocumentedNames.inSentence(after: "Failure codes:", of: readme))
        #expect(listed == Set(CompileFailure.Code.allCases.map(\.rawValue)))
    }
}
