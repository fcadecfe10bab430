public import Kafka
import LayoutService
public import Logging
public import ServiceLifecycle

/// Follows one page's layout records and change sets on a topic (the output, changes or latest-layout topic), from
/// the beginning of every partition and then live, by assignment: it never joins a consumer group, so a live group is
/// not disturbed. A message is a change set when its `content-type` header says so (or, without the header, when its
/// JSON `kind` is `layout-change-set`), else a record.
public struct TopicFollower: Service {
    let kafka: KafkaConfiguration
    let topic: String
    let key: String
    let hub: PreviewHub
    let logger: Logger

    public init(kafka: KafkaConfiguration, topic: String, key: String, hub: PreviewHub, logger: Logger) {
        self.kafka = kafka
        self.topic = topic
        self.key = key
        self.hub = hub
        self.logger = logger
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            let consumer = try KafkaConsumer(
                configuration: self.kafka, groupID: nil, defaults: ["fetch.wait.max.ms": "100"])
            defer { consumer.close() }
            let partitions = try await self.partitions()
            guard let partitions else { return }
            try consumer.assign(partitions.map { TopicPartition(self.topic, $0, offset: TopicPartition.beginning) })
            await self.hub.report(nil, page: nil)
            let wanted = Array(self.key.utf8)
            while !Task.isCancelled {
                guard let result = consumer.poll(timeoutMs: 100) else {
                    await Task.yield()
                    continue
                }
                switch result {
                case .success(let message):
                    guard message.key == wanted, let value = message.value else { continue }
                    let origin = "\(message.topic)[\(message.partition)]@\(message.offset)"
                    if Self.isChangeSet(message, value) {
                        await self.hub.apply(value, page: 0, origin: origin)
                    } else {
                        await self.hub.show(value, page: 0)
                    }
                case .failure(let error):
                    self.logger.warning("kafka", metadata: ["error": "\(error)"])
                    await self.hub.report("\(self.topic): \(error)", page: nil)
                }
            }
        }
    }

    /// The topic's partitions, waiting (and saying so in the page) until the topic exists; nil when cancelled first.
    private func partitions() async throws -> [Int32]? {
        let admin = try KafkaAdmin(configuration: kafka)
        while !Task.isCancelled {
            do {
                if let count = try admin.partitionCount(topic: topic) { return (0..<Int32(count)).map { $0 } }
                await hub.report("topic \(topic) does not exist (yet): waiting for it", page: nil)
            } catch {
                await hub.report("\(topic): \(error); retrying", page: nil)
            }
            try? await Task.sleep(for: .seconds(1))
        }
        return nil
    }

    /// Whether a message holds a change set rather than a record.
    static func isChangeSet(_ message: KafkaMessage, _ value: [UInt8]) -> Bool {
        if let type = message.header(OutputHeader.contentType) {
            return String(decoding: type, as: UTF8.self).hasPrefix(OutputHeader.changeSetMediaType)
        }
        // A change set's first members are its version and kind (a record's are its version and source).
        return value.prefix(48).firstRange(of: Array(#","kind":"layout-change-set""#.utf8)) != nil
    }
}
