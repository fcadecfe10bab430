import ArgumentParser
import Foundation
import Kafka
import Replay
import Serve

/// `layout-worker offsets`: a group's committed offsets and lag; resets them only with --execute and only when the group is empty.
struct OffsetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offsets",
        abstract: "Show a consumer group's committed offsets and lag, or reset them (dry run unless --execute).",
        discussion:
            "--reset: beginning | end | offset:N | P:N,P:N... | time:ISO8601 | ago:DURATION. A reset is refused while the group has members."
    )

    @OptionGroup var connection: ConnectionOptions
    @Option(SettingTable.group) var group: String?
    @Option(help: "Topic.") var topic: String
    @Option(help: "New position for every partition (see below).") var reset: String?
    @Flag(help: "Apply the reset (without it, only show what would be set).") var execute = false

    /// Each partition's low watermark and end, the end as a fetch finds it (a watermark query can under-report it).
    private static func extents(of partitions: [Int32], topic: String, kafka: KafkaConfiguration) throws
        -> [Int32: (low: Int64, high: Int64)]
    {
        let reader = try TopicRangeReader(configuration: kafka, topic: topic)
        defer { reader.close() }
        return try reader.extents(partitions).mapValues { (low: $0.low, high: $0.end) }
    }

    func run() throws {
        let resolved = try connection.resolve(defaultLevel: .warning)
        let kafka = resolved.kafka
        let group = try resolved.sources.read(SettingTable.group, group)
        let admin = try KafkaAdmin(configuration: kafka)
        guard let count = try admin.partitionCount(topic: topic) else { throw missingTopic(topic) }
        // A consumer carrying the group id, never subscribed: it reads and commits offsets without joining.
        let consumer = try KafkaConsumer(configuration: kafka, groupID: group)
        defer { consumer.close() }
        let partitions = (0..<Int32(count)).map { Partition(topic, $0) }
        let committed = Dictionary(
            uniqueKeysWithValues: try consumer.committed(partitions).map { ($0.partition.number, $0.offset) })
        let marks = try Self.extents(of: partitions.map(\.number), topic: topic, kafka: kafka)
        let description = try? admin.describeGroup(group)
        Output.line(
            "group \(group) on \(topic): \(description.map { "\($0.state), \($0.members) member(s)" } ?? "state unknown")"
        )
        for p in partitions {
            let c = committed[p.number] ?? Offset.invalid
            let (low, high) = marks[p.number]!
            let lag = c >= 0 ? max(0, high - c) : high - low
            Output.line("  partition \(p.number): committed \(c >= 0 ? String(c) : "none"), end \(high), lag \(lag)")
        }
        guard let reset else { return }
        // A reset that cannot be applied is refused before anything is listed as if it could.
        if execute {
            guard let description else {
                Output.error("cannot describe group \(group); refusing to reset offsets without knowing it is empty")
                throw ExitCode(1)
            }
            guard description.members == 0 else {
                Output.error(
                    "group \(group) has \(description.members) member(s) (\(description.state)); stop its workers before resetting offsets"
                )
                throw ExitCode(1)
            }
        }
        var targets: [Position] = []
        var timeReader: TopicRangeReader?
        defer { timeReader?.close() }
        for p in partitions {
            let (low, high) = marks[p.number]!
            let target: Int64
            if reset == "end" {
                target = high
            } else {
                let start: ReplayRange.Start
                do { start = try ReplayRange.parseStart(reset, now: Date()) } catch {
                    throw ValidationError("\(error)")
                }
                switch start {
                case .beginning: target = low
                case .offset(let n): target = min(max(n, low), high)
                case .offsets(let map):
                    target = min(max(map[p.number] ?? (committed[p.number] ?? low), low), high)
                case .time(let t):
                    let reader = try timeReader ?? TopicRangeReader(configuration: kafka, topic: topic)
                    timeReader = reader
                    target = try TimeLookup(kafka: kafka, topic: topic).firstOffset(
                        atOrAfter: t, partition: p.number, low: low, high: high, reader: reader)
                }
            }
            targets.append(p.at(target))
            Output.line("  partition \(p.number): \(execute ? "set to" : "would set to") \(target)")
        }
        guard execute else {
            Output.line("dry run: nothing changed (add --execute to apply)")
            return
        }
        // Per partition: a synchronous rd_kafka_commit reports an error only when every partition failed.
        let failed = consumer.commitNow(targets).filter { $0.error != nil }
        for f in failed { Output.error("partition \(f.position.partition.number): not reset: \(f.error!)") }
        guard failed.isEmpty else { throw ExitCode(1) }
        Output.line("offsets reset")
    }
}
