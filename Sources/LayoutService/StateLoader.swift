import Dispatch
public import Kafka
import LayoutDiff
import LayoutRecord
public import Logging

/// Reads the "latest layout" topic back into a layout store for newly assigned input partitions.
public final class StateLoader {
    let settings: ChangeSettings
    let kafka: KafkaConfiguration
    let logger: Logger
    private var consumer: KafkaConsumer?

    public init(settings: ChangeSettings, kafka: KafkaConfiguration, logger: Logger) {
        self.settings = settings
        self.kafka = kafka
        self.logger = logger
    }

    /// What a rebuild read.
    public struct Loaded: Sendable {
        public var layouts = 0
        public var tombstones = 0
        public var unreadable = 0
        public var seconds = 0.0
    }

    /// Loads the latest layout of every page of `partitions` (input partitions; state partition numbers match).
    public func load(_ partitions: [TopicPartition], into store: inout LayoutStore, timeoutMs: Int = 60_000)
        throws(KafkaError) -> Loaded
    {
        let start = DispatchTime.now()
        let deadline = start + .milliseconds(timeoutMs)
        var loaded = Loaded()
        let consumer: KafkaConsumer
        if let existing = self.consumer {
            consumer = existing
        } else {
            consumer = try KafkaConsumer(
                configuration: kafka, groupID: nil, defaults: ["fetch.wait.max.ms": "50"], reportsPartitionEnd: true)
            self.consumer = consumer
        }
        for input in partitions {
            let low: Int64, high: Int64
            do {
                (low, high) = try consumer.queryWatermarks(topic: settings.stateTopic, partition: input.partition)
            } catch {
                throw KafkaError(
                    code: error.code, name: error.name,
                    message: "latest-layout topic \(settings.stateTopic) partition \(input.partition) "
                        + "(for input \(input.topic)[\(input.partition)]): \(error.message); create it compacted with as many partitions as the input",
                    isFatal: error.isFatal, isRetriable: error.isRetriable)
            }
            guard high > low else { continue }
            try consumer.assign([TopicPartition(settings.stateTopic, input.partition, offset: low)])
            // Read to the end of the partition (the fetch-side end, reported as a partition EOF event).
            reading: while DispatchTime.now() < deadline {
                guard let result = consumer.poll(timeoutMs: 100) else { continue }
                switch result {
                case .failure(let e):
                    if e.code == KafkaError.partitionEOF { break reading }
                    if e.isFatal { throw e }
                    logger.warning("reading latest layouts", metadata: ["error": .string(e.description)])
                case .success(let m):
                    guard let source = m.header(OutputHeader.sourceTopic), source.elementsEqual(input.topic.utf8),
                        let keyBytes = m.key
                    else { continue }
                    let key = LayoutStore.Key(
                        topic: input.topic, partition: input.partition, page: String(decoding: keyBytes, as: UTF8.self))
                    let position = OutputHeader.position(of: m)
                    guard let value = m.value else {
                        store.store(LayoutStore.Page(layout: nil, position: position), for: key)
                        loaded.tombstones += 1
                        continue
                    }
                    do {
                        store.store(
                            LayoutStore.Page(layout: try RecordOutline(bytes: value), position: position), for: key)
                        loaded.layouts += 1
                    } catch {
                        loaded.unreadable += 1
                        logger.warning(
                            "unreadable latest layout skipped",
                            metadata: [
                                "partition": .stringConvertible(m.partition), "offset": .stringConvertible(m.offset),
                                "error": .string(error.description),
                            ])
                    }
                }
            }
            if DispatchTime.now() >= deadline {
                throw KafkaError(
                    code: -185, name: "_TIMED_OUT",
                    message:
                        "rebuilding latest layouts from \(settings.stateTopic)[\(input.partition)] took longer than \(timeoutMs) ms"
                )
            }
        }
        try consumer.assign([])
        loaded.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return loaded
    }

    /// Leaves the brokers.
    public func close() {
        consumer?.close()
        consumer = nil
    }
}
