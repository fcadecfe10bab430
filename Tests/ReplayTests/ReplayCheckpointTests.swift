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

    /// A checkpoint is continued only by the replay that wrote it: another output, start, stop or partition list is
    /// refused with the checkpoint's path and what differs; one written before checkpoints named them is refused too.
    @Test func continuedOnlyByTheSameReplay() {
        let saved = ReplayCheckpoint(
            topic: "responses", output: "backfill", partitions: [3, 0], start: "beginning", stop: "end", done: ["0": 9])
        let same = ReplayCheckpoint(
            topic: "responses", output: "backfill", partitions: [0, 3], start: "beginning", stop: "end")
        #expect(saved.refusal(toContinue: same, path: "c.json") == nil)
        var other = same
        other.output = "backfill-2"
        let intoOther = saved.refusal(toContinue: other, path: "c.json")
        #expect(
            intoOther?.contains("checkpoint c.json was written by a replay of responses into backfill, not backfill-2")
                == true)
        #expect(intoOther?.contains("another --checkpoint path") == true)
        other = same
        other.start = "offset:5"
        #expect(saved.refusal(toContinue: other, path: "c.json")?.contains("--start beginning, not offset:5") == true)
        other = same
        other.partitions = nil
        #expect(saved.refusal(toContinue: other, path: "c.json")?.contains("--partitions 0,3, not all") == true)
        other = same
        other.topic = "requests"
        #expect(saved.refusal(toContinue: other, path: "c.json")?.contains("of topic responses, not requests") == true)
        let older = ReplayCheckpoint(topic: "responses", done: ["0": 9])
        #expect(older.refusal(toContinue: same, path: "c.json")?.contains("did not record its output topic") == true)
    }
}
