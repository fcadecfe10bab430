import Foundation
import Replay
import Testing

/// The checkpoint a rerun continues after: written whole, read back equal; none yet is nil.
@Suite struct ReplayCheckpointTests {
    @Test func savedAndLoadedBack() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("backfill.ckpt").path
        #expect(try ReplayCheckpoint.load(path) == nil, "no checkpoint yet")
        var checkpoint = ReplayCheckpoint(topic: "responses", done: ["0": 119, "3": 4499])
        try checkpoint.save(path)
        #expect(try ReplayCheckpoint.load(path) == checkpoint)
        checkpoint.done["0"] = 500
        try checkpoint.save(path)
        #expect(try ReplayCheckpoint.load(path)?.done == ["0": 500, "3": 4499])
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self) { try ReplayCheckpoint.load(path) }
    }
}
