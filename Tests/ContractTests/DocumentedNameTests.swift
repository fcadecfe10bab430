import Delivery
import Foundation
import LayoutCompiler
import LayoutKit
import Serve
import TestSupport
import Testing

/// The service's names as the operating manual documents them: every dead-letter code (the compiler's and the
/// service's) and every dead-letter header; and every relative link of README and docs/ leads to a file.
@Suite struct DocumentedNameTests {
    private let readme = Fixtures.text("docs/operating.md")

    @Test func relativeLinksInREADMEAndDocsResolve() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("docs"))
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        #expect(docs.count >= 8)
        var checked = 0
        for page in ["README.md"] + docs {
            let directory = URL(fileURLWithPath: Fixtures.path(page)).deletingLastPathComponent()
            for match in Fixtures.text(page).matches(of: /\]\(([^)#\s]+)(#[^)]*)?\)/) {
                let target = String(match.1)
                guard !target.hasPrefix("http") else { continue }
                let path = directory.appendingPathComponent(target).standardized.path
                #expect(FileManager.default.fileExists(atPath: path), "\(page) links to \(target), which is not there")
                checked += 1
            }
        }
        #expect(checked >= 15)
    }

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
            Wire.Header.errorCode, Wire.Header.errorMessage, Wire.Header.sourceTopic, Wire.Header.workerVersion,
            Wire.Header.deadLetterCut,
        ] {
            #expect(readme.contains("`\(name)`"), "\(name)")
        }
        for suffix in [Wire.Header.sourcePartition, Wire.Header.sourceOffset, Wire.Header.sourceTimestamp] {
            #expect(readme.contains("`-" + suffix.dropFirst("layout-worker-".count) + "`"), "\(suffix)")
        }
        #expect(readme.contains(Wire.recordContentType) && readme.contains(Wire.changeSetContentType))
    }
}
