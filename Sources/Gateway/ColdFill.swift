import Kafka
import LayoutKit
import Logging
import Ops
import PageStore

/// A gateway's cold start: latest-layout partitions the page store has no checkpoint for (a new pod, a lost volume)
/// are read from the beginning to their ends as a fetch finds them now, straight into the page store in large
/// unlogged batches made durable once (`PageFiller`), not through the memory cache: memory stays bounded and the
/// reading is several times faster. The feed then follows them from those ends as from any checkpoint.
struct ColdFill {
    let reader: TopicRangeReader
    let store: PageStore
    let logger: Logger

    /// What a fill did.
    enum Outcome {
        /// Each partition's checkpoint (where the feed reads on from) and the messages read.
        case filled(ends: [Int32: Int64], messages: Int)
        /// Asked to stop first.
        case stopped
        /// The store could not be written: the feed goes on from memory (what was written stays unused: no
        /// checkpoint of it was made durable unless the whole fill was).
        case storeFailed(PageStoreError)
    }

    func run(_ partitions: [Int32], beat: () -> Void, stop: () -> Bool) throws(KafkaError) -> Outcome {
        do {
            return try fill(partitions, beat: beat, stop: stop)
        } catch let error as PageStoreError {
            return .storeFailed(error)
        } catch let error as KafkaError {
            throw error
        } catch {
            return .storeFailed(PageStoreError(path: store.path, operation: "fill", message: "\(error)"))
        }
    }

    private func fill(_ partitions: [Int32], beat: () -> Void, stop: () -> Bool) throws -> Outcome {
        let ends = try reader.fetchedEnds(partitions)
        var fillers: [Int32: PageFiller] = [:]
        for p in partitions { fillers[p] = PageFiller(store, scope: .whole, checkpoint: reader.topic, partition: p) }
        let ranges = partitions.compactMap { p -> TopicRangeReader.Range? in
            guard let end = ends[p], end > 0 else { return nil }
            return .init(partition: p, start: TopicPartition.beginning, stop: .offset(end))
        }
        var messages = 0
        if !ranges.isEmpty {
            try reader.read(ranges)
            var progress = Periodic(every: .seconds(5))
            while !reader.isDone {
                if stop() { return .stopped }
                beat()
                if progress.isDue() {
                    logger.info(
                        "filling the page store",
                        metadata: [
                            "messages-read": .stringConvertible(messages), "partitions": .string(reader.progress),
                        ])
                }
                switch reader.next(timeoutMs: 100) {
                case .failure(let e)?:
                    if e.isFatal { throw e }
                    logger.warning("kafka", metadata: ["error": .string(e.description)])
                case .success(let m)?:
                    messages += 1
                    guard let keyBytes = m.key, let key = String(validating: keyBytes, as: UTF8.self) else { continue }
                    let page = m.value.map {
                        StoredPage(position: m.integerHeader(Wire.Header.sourceOffset), record: $0)
                    }
                    try fillers[m.partition]?.add(key, page, through: m.offset)
                case nil:
                    continue
                }
            }
        }
        for p in partitions { try fillers[p]?.finish(checkpoint: ends[p] ?? 0) }
        return .filled(ends: ends, messages: messages)
    }
}
