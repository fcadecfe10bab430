import Foundation
import LayoutKit
import TestSupport
import Testing

@testable import PageStore

/// The page store keeps pages, positions, change sets and checkpoints across reopening, writes a batch whole,
/// and rebuilds (says why) a store made for another identity or found corrupt.
@Suite struct PageStoreTests {
    static func directory() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("page-store-\(UUID().uuidString)").path
        return dir
    }

    static let scope = PageStore.Scope.partition(topic: "in", partition: 3)

    @Test func aBatchIsFullAt512PagesOr4MiB() {
        #expect(!PageStore.Batch.isFull(pages: 511, bytes: 4 << 20 - 1))
        #expect(PageStore.Batch.isFull(pages: 512, bytes: 0))
        #expect(PageStore.Batch.isFull(pages: 1, bytes: 4 << 20))
    }

    @Test func pagesAndCheckpointsSurviveReopening() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var (store, opening) = try PageStore.open(directory: dir, identity: "cluster-a/latest")
        #expect(opening == .created)
        let change = StoredChange(base: ContentHash(value: 1), target: ContentHash(value: 2), bytes: Array("{}".utf8))
        var batch = PageStore.Batch()
        batch.pages.append(
            (PageKey("page-1", in: Self.scope), StoredPage(position: 41, record: Array("record-1".utf8))))
        batch.pages.append((PageKey("page-2", in: Self.scope), StoredPage(position: 7, record: nil)))
        let steps = [
            CarriedStep(group: "g", offset: 40, changeSet: Array("{\"kind\":1}".utf8)),
            CarriedStep(group: "g", offset: 41, changeSet: nil),
        ]
        batch.pages.append(
            (PageKey("page-4", in: Self.scope), StoredPage(position: 41, record: nil, steps: steps)))
        batch.pages.append((PageKey("page-1", in: .whole), StoredPage(record: Array("r".utf8), history: [change])))
        batch.checkpoints.append(("in", 3, 120))
        try store.write(batch)
        store.close()
        (store, opening) = try PageStore.open(directory: dir, identity: "cluster-a/latest")
        #expect(opening == .reopened)
        #expect(
            try store.page(PageKey("page-1", in: Self.scope))
                == StoredPage(position: 41, record: Array("record-1".utf8)))
        // A cleared page keeps its position.
        #expect(try store.page(PageKey("page-2", in: Self.scope)) == StoredPage(position: 7, record: nil))
        #expect(try store.page(PageKey("page-1", in: .whole))?.history == [change])
        #expect(try store.page(PageKey("page-3", in: Self.scope)) == nil)
        // Carried steps come back in order, a tombstone's as one; a page without steps keeps the first format.
        #expect(try store.page(PageKey("page-4", in: Self.scope))?.steps == steps)
        #expect(StoredPage(position: 1, record: [1]).encoded.first == 1)
        #expect(try store.checkpoint(topic: "in", partition: 3) == 120)
        #expect(try store.checkpoint(topic: "in", partition: 4) == nil)
        #expect(store.diskBytes > 0)
    }

    @Test func removingAScopeLeavesTheOthers() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try PageStore.open(directory: dir, identity: "x")
        let other = PageStore.Scope.partition(topic: "in", partition: 4)
        var batch = PageStore.Batch()
        for i in 0..<50 {
            batch.pages.append((PageKey("p\(i)", in: Self.scope), StoredPage(position: Int64(i), record: [1])))
            batch.pages.append((PageKey("p\(i)", in: other), StoredPage(position: Int64(i), record: [2])))
        }
        batch.checkpoints = [("in", 3, 50), ("in", 4, 50)]
        try store.write(batch)
        try store.removeScope(Self.scope, checkpoint: "in", partition: 3)
        #expect(try store.pages(in: Self.scope).isEmpty)
        #expect(try store.pages(in: other).count == 50)
        #expect(try store.checkpoint(topic: "in", partition: 3) == nil)
        #expect(try store.checkpoint(topic: "in", partition: 4) == 50)
    }

    @Test func aStoreForAnotherIdentityIsRebuilt() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var (store, _) = try PageStore.open(directory: dir, identity: "cluster-a/latest")
        var batch = PageStore.Batch()
        batch.pages.append((PageKey("k", in: .whole), StoredPage(record: [1, 2, 3])))
        batch.checkpoints.append(("latest", 0, 9))
        try store.write(batch)
        store.close()
        let opening: PageStore.Opening
        (store, opening) = try PageStore.open(directory: dir, identity: "cluster-b/latest")
        guard case .rebuilt(let reason) = opening else {
            Issue.record("expected a rebuild, got \(opening)")
            return
        }
        #expect(reason.contains("cluster-a/latest") && reason.contains("cluster-b/latest"))
        #expect(try store.page(PageKey("k", in: .whole)) == nil)
        #expect(try store.checkpoint(topic: "latest", partition: 0) == nil)
        store.close()
        #expect(try PageStore.open(directory: dir, identity: "cluster-b/latest").opening == .reopened)
    }

    @Test func aCorruptStoreIsRebuilt() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try PageStore.open(directory: dir, identity: "x")
        var batch = PageStore.Batch()
        batch.pages.append((PageKey("k", in: .whole), StoredPage(record: [1])))
        try store.write(batch)
        store.close()
        // The manifest RocksDB starts from, overwritten with garbage.
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        for name in files where name.hasPrefix("MANIFEST-") {
            try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        let (reopened, opening) = try PageStore.open(directory: dir, identity: "x")
        guard case .rebuilt(let reason) = opening else {
            Issue.record("expected a rebuild, got \(opening)")
            return
        }
        #expect(reason.contains("corrupt"))
        #expect(try reopened.page(PageKey("k", in: .whole)) == nil)
    }

    @Test func aDirectoryHeldByAnotherStoreIsRefused() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try PageStore.open(directory: dir, identity: "x")
        #expect(throws: PageStoreError.self) { _ = try PageStore.open(directory: dir, identity: "x") }
        store.close()
    }

    @Test func largeValuesRoundTrip() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try PageStore.open(directory: dir, identity: "x")
        var g = SeededRandom(seed: 7)
        var expected: [String: [UInt8]] = [:]
        for round in 0..<4 {
            var batch = PageStore.Batch()
            for i in 0..<64 {
                let size = Int.random(in: 0..<120_000, using: &g)
                let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &g) }
                expected["page-\(i)"] = bytes
                batch.pages.append(
                    (PageKey("page-\(i)", in: .whole), StoredPage(position: Int64(round), record: bytes)))
            }
            try store.write(batch)
        }
        for (key, bytes) in expected { #expect(try store.page(PageKey(key, in: .whole))?.record == bytes) }
        #expect(try store.pages(in: .whole).count == 64)
    }

    /// A bulk load's unlogged batches are lost whole (pages with their checkpoint) by a crash before the load ends,
    /// and are on disk once it ended; large values go to blob files. A crash is a copy of the directory taken while
    /// the store is open.
    @Test func aBulkLoadIsOnDiskOnceItEnds() throws {
        let dir = Self.directory()
        let copies = (Self.directory(), Self.directory())
        defer { for d in [dir, copies.0, copies.1] { try? FileManager.default.removeItem(atPath: d) } }
        let (store, _) = try PageStore.open(directory: dir, identity: "x")
        store.beginBulkLoad()
        var batch = PageStore.Batch()
        let large = Array(repeating: UInt8(ascii: "a"), count: 20_000)
        for i in 0..<10 {
            batch.pages.append((PageKey("page-\(i)", in: .whole), StoredPage(position: Int64(i), record: large)))
        }
        batch.pages.append((PageKey("small", in: .whole), StoredPage(position: 1, record: Array("s".utf8))))
        batch.checkpoints.append(("latest", 0, 10))
        try store.write(batch, logged: false)
        try FileManager.default.copyItem(atPath: dir, toPath: copies.0)
        try store.endBulkLoad()
        try FileManager.default.copyItem(atPath: dir, toPath: copies.1)
        #expect(store.blobFiles > 0, "values of 20 KB are kept in blob files")
        store.close()
        let (before, _) = try PageStore.open(directory: copies.0, identity: "x")
        #expect(try before.checkpoint(topic: "latest", partition: 0) == nil)
        #expect(
            try before.page(PageKey("page-3", in: .whole)) == nil && before.page(PageKey("small", in: .whole)) == nil)
        before.close()
        let (after, _) = try PageStore.open(directory: copies.1, identity: "x")
        #expect(try after.checkpoint(topic: "latest", partition: 0) == 10)
        #expect(try after.page(PageKey("page-3", in: .whole)) == StoredPage(position: 3, record: large))
        #expect(try after.page(PageKey("small", in: .whole))?.record == Array("s".utf8))
        after.close()
    }

    @Test func anUnloggedBatchOutsideABulkLoadIsWrittenLogged() throws {
        let dir = Self.directory()
        let copy = Self.directory()
        defer { for d in [dir, copy] { try? FileManager.default.removeItem(atPath: d) } }
        let (store, _) = try PageStore.open(directory: dir, identity: "x")
        var batch = PageStore.Batch()
        batch.pages.append((PageKey("page", in: .whole), StoredPage(position: 4, record: Array("p".utf8))))
        batch.checkpoints.append(("latest", 0, 5))
        try store.write(batch, logged: false)
        // A copy of the open store's directory is what a crash leaves: only the write-ahead log has the batch.
        try FileManager.default.copyItem(atPath: dir, toPath: copy)
        store.close()
        let (crashed, _) = try PageStore.open(directory: copy, identity: "x")
        #expect(try crashed.checkpoint(topic: "latest", partition: 0) == 5)
        #expect(try crashed.page(PageKey("page", in: .whole)) == StoredPage(position: 4, record: Array("p".utf8)))
        crashed.close()
    }
}
