import Foundation
import LayoutCompiler
import LayoutService
import TestSupport
import Testing

/// The service's names as README documents them: every dead-letter code (the compiler's and the service's) and
/// every dead-letter header.
@Suite struct DocumentedNameTests {
    private func readme() throws -> String { try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8) }

    @Test func deadLetterCodesAgreeWithREADME() throws {
        let text = try readme()
        let start = try #require(text.range(of: "`layout-worker-version`; the partition carries on. Codes:"))
        let sentence = text[start.upperBound...].prefix { $0 != "." }
        let documented = Set(sentence.matches(of: /`([a-z][a-z-]*)`/).map { String($0.1) })
        let defined = Set(CompileFailure.Code.allCases.map(\.rawValue) + DeadLetter.Code.allCases.map(\.rawValue))
        #expect(documented == defined)
    }

    @Test func deadLetterHeadersAreDocumented() throws {
        let text = try readme()
        for name in [
            OutputHeader.errorCode, OutputHeader.errorMessage, OutputHeader.sourceTopic, OutputHeader.workerVersion,
            OutputHeader.deadLetterCut,
        ] {
            #expect(text.contains("`\(name)`"), "\(name)")
        }
        for suffix in [OutputHeader.sourcePartition, OutputHeader.sourceOffset, OutputHeader.sourceTimestamp] {
            #expect(text.contains("`-" + suffix.dropFirst("layout-worker-".count) + "`"), "\(suffix)")
        }
        #expect(text.contains(OutputHeader.recordContentType) && text.contains(OutputHeader.changeSetContentType))
    }
}
