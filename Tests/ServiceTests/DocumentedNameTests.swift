import Foundation
import LayoutCompiler
import LayoutService
import TestSupport
import Testing

/// The service's names as README documents them: every dead-letter code (the compiler's and the service's) and
/// every dead-letter header.
@Suite struct DocumentedNameTests {
    private let readme = Fixtures.text("README.md")

    @Test func deadLetterCodesAgreeWithREADME() throws {
        let listed = try #require(
            DocumentedNames.inSentence(after: "`layout-worker-version`; the partition carries on. Codes:", of: readme))
        // The codes, not the options the sentence names on the way (`--max-message-bytes`).
        let documented = listed.filter { $0.wholeMatch(of: /[a-z][a-z-]*/) != nil }
        let defined = Set(CompileFailure.Code.allCases.map(\.rawValue) + DeadLetter.Code.allCases.map(\.rawValue))
        #expect(documented == defined)
    }

    @Test func deadLetterHeadersAreDocumented() throws {
        for name in [
            OutputHeader.errorCode, OutputHeader.errorMessage, OutputHeader.sourceTopic, OutputHeader.workerVersion,
            OutputHeader.deadLetterCut,
        ] {
            #expect(readme.contains("`\(name)`"), "\(name)")
        }
        for suffix in [OutputHeader.sourcePartition, OutputHeader.sourceOffset, OutputHeader.sourceTimestamp] {
            #expect(readme.contains("`-" + suffix.dropFirst("layout-worker-".count) + "`"), "\(suffix)")
        }
        #expect(readme.contains(OutputHeader.recordContentType) && readme.contains(OutputHeader.changeSetContentType))
    }
}
