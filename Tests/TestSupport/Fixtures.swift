public import Foundation

/// Locations of the repository's samples, configs, schemas and the shared corpus.
public enum Fixtures {
    /// The repository root (three levels above this file).
    public static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The bytes of a repository file.
    public static func bytes(_ relative: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            fatalError("missing fixture \(relative)")
        }
        return [UInt8](data)
    }

    /// The text of a repository file.
    public static func text(_ relative: String) -> String { String(decoding: bytes(relative), as: UTF8.self) }

    /// Every `samples/*.json` file, sorted.
    public static var samples: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path("samples"))) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted().map { "samples/" + $0 }
    }

    /// The shared corpus folder (`../shared/corpus/assembler`), or nil when it is absent (a user's clone).
    public static var corpusDirectory: String? {
        let dir = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/assembler").path
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue ? dir : nil
    }

    /// Absolute paths of the corpus's JSON responses (empty when the corpus is absent).
    public static var corpusFiles: [String] {
        guard let dir = corpusDirectory else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted().map { dir + "/" + $0 }
    }

    /// The bytes of an absolute path.
    public static func bytes(absolute path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("missing file \(path)") }
        return [UInt8](data)
    }
}
