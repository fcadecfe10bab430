import Foundation

/// The last offset per partition whose output was acknowledged, saved so a replay can continue after it, with the
/// replay it belongs to (input, output, partitions and range as asked), so another replay never continues it.
public struct ReplayCheckpoint: Codable, Sendable, Equatable {
    /// The input topic.
    public var topic: String
    /// The output topic; nil in a checkpoint written before checkpoints named it.
    public var output: String?
    /// The partitions asked for (sorted); nil is every partition.
    public var partitions: [Int32]?
    /// `--start` and `--stop` as written; nil in a checkpoint written before checkpoints named them.
    public var start: String?
    public var stop: String?
    /// Partition (as text, for JSON) → last acknowledged offset.
    public var done: [String: Int64]

    public init(
        topic: String, output: String? = nil, partitions: [Int32]? = nil, start: String? = nil, stop: String? = nil,
        done: [String: Int64] = [:]
    ) {
        self.topic = topic
        self.output = output
        self.partitions = partitions?.sorted()
        self.start = start
        self.stop = stop
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

    /// Why this saved checkpoint (read from `path`) cannot be continued by the replay `asked` describes (a checkpoint
    /// with nothing done), or nil when it can: same input, output, partitions, start and stop.
    public func refusal(toContinue asked: ReplayCheckpoint, path: String) -> String? {
        let wrote = "checkpoint \(path) was written by a replay"
        if topic != asked.topic { return "\(wrote) of topic \(topic), not \(asked.topic)" + Self.remedy }
        guard let output, let start, let stop else {
            return
                "\(wrote) of \(topic) by a layout-worker that did not record its output topic and range; it may come from a dry run or another backfill"
                + Self.remedy
        }
        var differences: [String] = []
        if output != asked.output { differences.append("into \(output), not \(asked.output ?? "-")") }
        if start != asked.start { differences.append("--start \(start), not \(asked.start ?? "-")") }
        if stop != asked.stop { differences.append("--stop \(stop), not \(asked.stop ?? "-")") }
        if partitions != asked.partitions {
            let list = { (p: [Int32]?) in p.map { $0.map(String.init).joined(separator: ",") } ?? "all" }
            differences.append("--partitions \(list(partitions)), not \(list(asked.partitions))")
        }
        guard !differences.isEmpty else { return nil }
        return "\(wrote) of \(topic) " + differences.joined(separator: ", ") + Self.remedy
    }

    private static let remedy =
        ": pass the same flags to continue it, or another --checkpoint path (or delete the file) to start this replay afresh"
}
