import Kafka
import Logging
import PageStore

/// Topics the gateway's page store was filled from, against the brokers' topic ids now: one deleted and created again
/// under its name (another id) is another topic. For the latest-layout topic every page and checkpoint is forgotten
/// (all came from it) and it is read from the beginning; for the change-set topic its checkpoints are, and it is read
/// from its end. The log names each partition and says why.
enum ReplacedTopics {
    static func forget(
        in store: PageStore, latest: (TopicRangeReader, [Int32]), changes: (TopicRangeReader, [Int32]), logger: Logger
    ) throws {
        let topics = [
            (latest.0, latest.1, PageStore.Forgetting.everything, "read again from the beginning"),
            (changes.0, changes.1, .checkpoints(changes.1), "read from its end"),
        ]
        let ids = try latest.0.topicIDs([latest.0.topic, changes.0.topic])
        for (reader, partitions, forgetting, how) in topics {
            guard case .replaced(let was, let now) = try store.check(topic: reader.topic, id: ids[reader.topic])
            else { continue }
            for p in partitions {
                logger.warning(
                    "page store partition \(how): its topic was created again",
                    metadata: [
                        "topic": "\(reader.topic)", "partition": "\(p)", "topic-id-was": "\(was)", "topic-id": "\(now)",
                    ])
            }
            try store.forget(forgetting, recording: reader.topic, id: now)
        }
    }
}
