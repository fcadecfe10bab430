import Foundation

/// The last offset per partition whose output was acknowledged, saved so a replay can continue after it.
public struct ReplayCheckpoint: Codable, Sendable, Equatable {
    public var topic: String
    /// Partition (as text, for JSON) → last acknowledged offset.
    public var done: [String: Int64]

    public init(topic: String, done: [String: Int64] = [:]) {
        self.topic = topic
        self.done = done
    }

    /// The checkpoint in `path`, or nil when the file does not exist.
    public static func load(_ path: String) throws -> ReplayCheckpoint? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try JSONDecoder().decode(ReplayCheckpoint.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes the checkpoint atomically (a temporary file renamed over the old one).
    public func save(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
