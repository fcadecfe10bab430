import ArgumentParser
import PageStore

/// Takes a page store's directory for `serve` or `gateway` (`PageStoreLock`); when another process holds it, says so
/// on stderr and exits 1 before anything starts (nil: a directory that cannot be used at all, which the store's open
/// reports).
enum PageStoreOwner {
    static func take(_ directory: String) throws -> PageStoreLock? {
        do {
            return try PageStoreLock.take(directory: directory)
        } catch {
            Output.error("\(error)")
            throw ExitCode(1)
        }
    }
}
