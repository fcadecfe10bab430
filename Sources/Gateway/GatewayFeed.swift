import Dispatch
import Foundation
public import Kafka
public import Logging

/// Reads the latest-layout topic from its beginning, then the change-set topic from its end, both by assignment
/// (no consumer group: any number of gateways can run side by side), into the page book; sends heartbeats and the
/// records that waited too long for their change set. Runs on a thread of its own until `stop` says so.
public struct GatewayFeed: Sendable {
    let settings: GatewaySettings
    let book: PageBook
    let status: GatewayStatus
    let logger: Logger

    public init(settings: GatewaySettings, book: PageBook, status: GatewayStatus, logger: Logger) {
        self.settings = settings
        self.book = book
        self.status = status
        self.logger = logger
    }

    /// Reads until `stop()`; a topic that does not exist yet is waited for.
    public func run(stop: @escaping () -> Bool) throws(KafkaError) {
        guard let latestPartitions = waitForTopic(settings.latestTopic, stop: stop),
            let changePartitions = waitForTopic(settings.changesTopic, stop: stop)
        else { return }
        let latest = try TopicRangeReader(configuration: settings.kafka, topic: settings.latestTopic)
        defer { latest.close() }
        try latest.read(latestPartitions.map { .init(partition: $0, start: TopicPartition.beginning) })
        let changes = try TopicRangeReader(configuration: settings.kafka, topic: settings.changesTopic)
        defer { changes.close() }
        var changesStarted = false
        var lastHeartbeat = DispatchTime.now()
        var lastLag = DispatchTime.now()
        while !stop() {
            status.beat()
            if let result = latest.next(timeoutMs: changesStarted ? 0 : 50) { take(result, latest: true) }
            if !changesStarted && latest.hasCaughtUp {
                // From the end: what happened before is in the latest layouts just read.
                try changes.read(changePartitions.map { .init(partition: $0, start: TopicPartition.end) })
                changesStarted = true
                status.setCaughtUp()
                logger.info(
                    "gateway caught up", metadata: ["pages": .stringConvertible(book.figures.pages)])
            }
            if changesStarted, let result = changes.next(timeoutMs: 50) { take(result, latest: false) }
            book.flushPending()
            if DispatchTime.now().uptimeNanoseconds - lastLag.uptimeNanoseconds >= 1_000_000_000 {
                status.setLag(latest: latest.lag, changes: changesStarted ? changes.lag : 0)
                lastLag = .now()
            }
            if DispatchTime.now().uptimeNanoseconds - lastHeartbeat.uptimeNanoseconds
                >= UInt64(settings.heartbeatSeconds) * 1_000_000_000
            {
                book.heartbeat()
                lastHeartbeat = .now()
            }
        }
    }

    private func take(_ result: Result<KafkaMessage, KafkaError>, latest: Bool) {
        switch result {
        case .failure(let error):
            status.setProblem(error.description)
            logger.warning("kafka", metadata: ["error": .string(error.description)])
        case .success(let m):
            status.setProblem(nil)
            guard let keyBytes = m.key, let key = String(validating: keyBytes, as: UTF8.self) else { return }
            if latest {
                book.storeRecord(m.value, for: key)
            } else if let value = m.value {
                guard let hashes = ChangeSetHashes(value) else {
                    logger.warning(
                        "not a change set; skipped",
                        metadata: [
                            "partition": .stringConvertible(m.partition), "offset": .stringConvertible(m.offset),
                        ])
                    return
                }
                book.storeChangeSet(value, base: hashes.base, target: hashes.target, for: key)
            }
        }
    }

    /// The topic's partitions once it exists (nil when stopped first).
    private func waitForTopic(_ topic: String, stop: () -> Bool) -> [Int32]? {
        var reported = false
        while !stop() {
            status.beat()
            do {
                if let partitions = try TopicRangeReader.partitions(
                    of: topic, configuration: settings.kafka, timeoutMs: 1_000)
                {
                    return partitions
                }
                if !reported { logger.warning("topic does not exist (yet): waiting", metadata: ["topic": "\(topic)"]) }
                status.setProblem("topic \(topic) does not exist (yet)")
            } catch {
                status.setProblem("\(topic): \(error)")
            }
            reported = true
            Thread.sleep(forTimeInterval: 0.5)
        }
        return nil
    }
}
