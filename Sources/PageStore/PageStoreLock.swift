import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one process that uses a page store directory: `serve` and `gateway` take it when they start, before they join
/// a group or read a topic, and hold it until they exit (the kernel lets it go with the process, however it ends).
/// A second process given the same directory (two replicas sharing a volume, or two started in one working directory
/// with the default `--page-store`) stops at start with an error naming the holder, instead of quietly working
/// from memory.
public final class PageStoreLock: Sendable {
    /// The lock file (`owner.lock` in the store's directory; RocksDB leaves files it does not know alone).
    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Takes `directory` (made when missing) for this process. Throws when another process holds it; returns nil when
    /// the directory cannot be used at all (not writable, a file in its place): opening the store then fails the same
    /// way, and the command works from memory and says so, as it does for any store it cannot open.
    public static func take(directory: String) throws(PageStoreError) -> PageStoreLock? {
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil
        else { return nil }
        let path = directory + "/owner.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            var holder = [UInt8](repeating: 0, count: 64)
            let n = pread(fd, &holder, holder.count, 0)
            close(fd)
            guard reason == EWOULDBLOCK else { return nil }
            let pid = String(decoding: holder.prefix(max(0, n)), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw PageStoreError(
                path: directory, operation: "take the directory",
                message:
                    "another process (\(pid.isEmpty ? "pid unknown" : "pid " + pid)) uses it; give every replica a "
                    + "directory of its own (--page-store, e.g. a StatefulSet volume per pod)")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, text, text.count, 0)
        return PageStoreLock(path: path, descriptor: fd)
    }
}
