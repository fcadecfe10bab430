public import Foundation

/// What tells that a file may have changed without reading it: its size and modification time (the file a
/// symbolic link leads to, as a Kubernetes ConfigMap volume swaps them).
public struct FileStamp: Sendable, Equatable {
    public let size: Int
    public let modified: Date?

    /// The stamp of the file at `path`, or nil when it cannot be read.
    public init?(path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int
        else { return nil }
        self.size = size
        self.modified = attributes[.modificationDate] as? Date
    }
}
