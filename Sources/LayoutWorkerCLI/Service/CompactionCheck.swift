import Kafka
import Logging
import Ops
import ServiceLifecycle

/// The check `serve` and `gateway` make once at start: a latest-layout topic that is not compacted keeps its pages
/// only for its retention, so a page not republished within it vanishes from the topic gateways and new workers
/// rebuild from. Warned about, naming the topic and its `cleanup.policy`; not refused, as a broker may not describe
/// configs to this client. Runs beside the other services on a thread of its own and ends.
struct CompactionCheck: Service {
    let kafka: KafkaConfiguration
    let topic: String
    let logger: Logger

    func run() async {
        let (kafka, topic, logger) = (kafka, topic, logger)
        await ThreadedWork.run(named: "compaction-check", stop: StopSignal()) {
            do {
                let config = try KafkaAdmin(configuration: kafka).topicConfig(topic)
                if let warning = Self.warning(topic: topic, config: config) {
                    logger.warning(
                        "\(warning)",
                        metadata: ["topic": .string(topic), "cleanup.policy": .string(config[Self.policy] ?? "delete")])
                } else {
                    logger.debug("the latest-layout topic is compacted", metadata: ["topic": .string(topic)])
                }
            } catch {
                // Not there yet, or the cluster not answering: the feed and the worker report those on their own.
                logger.debug(
                    "cannot read the latest-layout topic's cleanup.policy",
                    metadata: ["topic": .string(topic), "error": .string("\(error)")])
            }
        }
    }

    private static let policy = "cleanup.policy"

    /// The warning for a latest-layout topic with this configuration (a broker may leave out a policy at its
    /// default, `delete`), or nil when it is compacted.
    static func warning(topic: String, config: [String: String]) -> String? {
        let policy = config[Self.policy] ?? "delete"
        guard !policy.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "compact" })
        else { return nil }
        let retention = config["retention.ms"].map { " (retention.ms=\($0))" } ?? ""
        return
            "latest-layout topic \(topic) is not compacted (cleanup.policy=\(policy))\(retention): a page not republished within its retention vanishes from the topic gateways and new workers rebuild from; set cleanup.policy=compact on it (create-topics --compacted makes it so)"
    }
}
