public import Foundation

/// A new directory under the temporary directory with `files` (name → text) written in it, given to `body` and
/// removed afterwards.
public func inDirectory<R>(_ files: [String: String], _ body: (URL) throws -> R) throws -> R {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lw-scratch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for (name, text) in files {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return try body(dir)
}
