import ArgumentParser
import Kafka

/// `layout-worker create-topics`: creates topics (an existing topic is reported, not an error).
struct CreateTopicsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-topics", abstract: "Create topics on the brokers.")

    @OptionGroup var connection: ConnectionOptions
    @Option(name: .customLong("partition-count"), help: "Partitions per topic.") var partitionCount: Int32 = 3
    @Flag(help: "Compacted topics (cleanup.policy=compact), e.g. for latest layouts.") var compacted = false
    @Argument(help: "Topic names.") var topics: [String]

    func run() throws {
        let admin = try KafkaAdmin(configuration: try connection.resolve(defaultLevel: .warning).kafka)
        let config = compacted ? ["cleanup.policy": "compact"] : [:]
        let results = try admin.createTopics(
            topics.map { NewTopic(name: $0, partitions: partitionCount, config: config) })
        var failed = false
        for topic in topics {
            switch results[topic] {
            case .some(.some(let e)) where e.code == .topicAlreadyExists: Output.line("\(topic): exists")
            case .some(.some(let e)):
                Output.error("\(topic): \(e)")
                failed = true
            default: Output.line("\(topic): created (\(partitionCount) partitions)")
            }
        }
        if failed { throw ExitCode(1) }
    }
}
