import Foundation
import PageStore
import Testing

/// One process per page store directory: a second taker is refused with the holder's pid, and the directory is
/// free again once the holder lets go.
@Suite struct PageStoreLockTests {
    @Test func aSecondTakerIsRefusedUntilTheFirstLetsGo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var first: PageStoreLock? = try PageStoreLock.take(directory: dir)
        #expect(first != nil)
        do {
            _ = try PageStoreLock.take(directory: dir)
            Issue.record("a second taker got the directory")
        } catch {
            #expect(error.description.contains("another process (pid \(getpid()))"), "\(error)")
            #expect(error.description.contains("--page-store"))
        }
        first = nil
        #expect(throws: Never.self) { _ = try PageStoreLock.take(directory: dir) }
        // The store opens beside the lock file, and a store rebuilt in the directory keeps it.
        let lock = try #require(try PageStoreLock.take(directory: dir))
        let opened = try PageStore.open(directory: dir, identity: "a")
        opened.store.close()
        let reopened = try PageStore.open(directory: dir, identity: "b")
        #expect(reopened.opening == .rebuilt(reason: "made for a, not b"))
        reopened.store.close()
        #expect(FileManager.default.fileExists(atPath: lock.path))
        // A directory that cannot be used at all (a file in its place) is no lock, and no error here.
        let file = dir + "/a-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        #expect(try PageStoreLock.take(directory: file) == nil)
    }
}
