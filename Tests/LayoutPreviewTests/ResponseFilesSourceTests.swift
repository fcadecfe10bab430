import Foundation
import LayoutCompiler
import LayoutDiff
import LayoutKit
import LayoutPreview
import LayoutRecord
import Logging
import Mapping
import TestSupport
import Testing

@Suite struct ResponseFilesSourceTests {
    /// One file as two pages, a response deleted and written again, a config replaced: each page follows its file.
    @Test func pagesFollowTheirFiles() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lw-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("mapping.yaml").path
        let response = dir.appendingPathComponent("page.json").path
        try Data(Fixtures.bytes("config/default.yaml")).write(to: URL(fileURLWithPath: config))
        try Data(Fixtures.bytes("samples/search-page.json")).write(to: URL(fileURLWithPath: response))
        let hub = PreviewHub(pageNames: [response, response])
        let source = ResponseFilesSource(
            config: config, responses: [response, response], hub: hub, maxInputBytes: 8 << 20,
            interval: .milliseconds(20), logger: Logger(label: "test"))
        let task = Task { try await source.run() }
        defer { task.cancel() }
        let first = try Samples.record("search-page", source: RecordSource(file: response))
        #expect(await waitUntil(seconds: 300) { await hub.snapshot.pages.map(\.record) == [first, first] })

        try FileManager.default.removeItem(atPath: response)
        #expect(
            await waitUntil(seconds: 300) {
                await hub.snapshot.pages.allSatisfy { $0.problem?.contains("cannot read") == true }
            })
        #expect(await hub.snapshot.pages.map(\.record) == [first, first], "the last layout stays")
        try Data(Fixtures.bytes("samples/empty-results.json")).write(to: URL(fileURLWithPath: response))
        let second = try Samples.record("empty-results", source: RecordSource(file: response))
        #expect(await waitUntil(seconds: 300) { await hub.snapshot.pages.map(\.record) == [second, second] })
        #expect(await hub.snapshot.pages.allSatisfy { $0.problem == nil })

        // A config that does not load is the preview's problem; the next good one recompiles every page.
        try Data("renderers: [\n".utf8).write(to: URL(fileURLWithPath: config))
        #expect(await waitUntil(seconds: 300) { await hub.snapshot.problem?.contains("mapping.yaml") == true })
        try Data(Fixtures.bytes("config/default.yaml")).write(to: URL(fileURLWithPath: config))
        #expect(await waitUntil(seconds: 300) { await hub.snapshot.problem == nil })
        #expect(await hub.snapshot.pages.map(\.record) == [second, second])
    }
}
