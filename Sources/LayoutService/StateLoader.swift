import Delivery
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
    private var reader: TopicRangeReader?

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
        let reader: TopicRangeReader
        if let existing = self.reader {
            reader = existing
        } else {
            reader = try TopicRangeReader(configuration: kafka, topic: settings.stateTopic)
            self.reader = reader
        }
        for input in partitions {
            let low: Int64, high: Int64
            do {
                (low, high) = try reader.watermarks(input.partition)
            } catch {
                throw KafkaError(
                    code: error.code, name: error.name,
                    message: "latest-layout topic \(settings.stateTopic) partition \(input.partition) "
                        + "(for input \(input.topic)[\(input.partition)]): \(error.message); create it compacted with as many partitions as the input",
                    isFatal: error.isFatal, isRetriable: error.isRetriable)
            }
            guard high > low else { continue }
            // To the end as the fetch finds it: a watermark query may under-report a partition's end.
            try reader.read([.init(partition: input.partition, start: low, stop: .partitionEnd)])
            while !reader.isDone && DispatchTime.now() < deadline {
                guard let result = reader.next(timeoutMs: 100) else { continue }
                switch result {
                case .failure(let e):
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
            if !reader.isDone {
                throw KafkaError(
                    code: -185, name: "_TIMED_OUT",
                    message:
                        "rebuilding latest layouts from \(settings.stateTopic)[\(input.partition)] took longer than \(timeoutMs) ms"
                )
            }
        }
        try reader.read([])
        loaded.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return loaded
    }

    /// Leaves the brokers.
    public func close() {
        reader?.close()
        reader = nil
    }
}
