import Foundation
public import Kafka
import LayoutJSON
import LayoutKit
public import Logging
import Ops
public import ServiceLifecycle

/// Follows one page's layout records and change sets on a topic (the output, changes or latest-layout topic), from
/// the beginning of every partition and then live, by assignment: it never joins a consumer group, so a live group is
/// not disturbed. A message is a change set when its `content-type` header says so (or, without the header, when its
/// JSON `kind` is `layout-change-set`), else a record. The consumer polls on a thread of its own (librdkafka's calls
/// block: `ThreadedWork`), handing the key's messages to the hub in topic order.
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

    /// What the polling thread reports.
    enum Report: Sendable {
        case message(KafkaMessage)
        /// A problem of the whole preview (no topic yet, a Kafka error); nil clears it.
        case problem(String?)
    }

    public func run() async throws {
        let (reports, continuation) = AsyncStream<Report>.makeStream()
        let stop = StopSignal()
        async let polled: Void = ThreadedWork.run(named: "layout-worker-preview-follow", stop: stop) {
            [kafka, topic, key, logger] in
            Self.poll(kafka: kafka, topic: topic, key: Array(key.utf8), stop: stop, logger: logger) {
                continuation.yield($0)
            }
            continuation.finish()
        }
        await withTaskCancellationHandler {
            for await report in reports.cancelOnGracefulShutdown() {
                switch report {
                case .problem(let message):
                    await hub.report(message, page: nil)
                case .message(let message):
                    guard let value = message.value else { continue }
                    let origin = "\(message.topic)[\(message.partition)]@\(message.offset)"
                    if Self.isChangeSet(message, value) {
                        await hub.apply(value, page: 0, origin: origin)
                    } else {
                        await hub.show(value, page: 0)
                    }
                }
            }
        } onCancel: {
            stop.request()
        }
        // The consumer is closed before this returns: exiting while librdkafka tears down can crash.
        stop.request()
        await polled
    }

    /// The polling thread: waits for the topic, assigns every partition from its beginning, passes on the key's
    /// messages, until `stop`.
    private static func poll(
        kafka: KafkaConfiguration, topic: String, key: [UInt8], stop: StopSignal, logger: Logger,
        report: (Report) -> Void
    ) {
        do {
            let reader = try TopicRangeReader(configuration: kafka, topic: topic, fetchWaitMs: 100)
            defer { reader.close() }
            var partitions: [Int32]?
            // Short waits, so a stop is noticed within about a second even while the brokers cannot be reached.
            while partitions == nil && !stop.isRequested {
                do {
                    partitions = try TopicRangeReader.partitions(of: topic, configuration: kafka, timeoutMs: 1_000)
                    if partitions == nil { report(.problem("topic \(topic) does not exist (yet): waiting for it")) }
                } catch {
                    report(.problem("\(topic): \(error); retrying"))
                }
                if partitions == nil { Thread.sleep(forTimeInterval: 0.25) }
            }
            guard let partitions else { return }
            try reader.read(partitions.map { .init(partition: $0, start: Offset.beginning) })
            report(.problem(nil))
            while !stop.isRequested {
                switch reader.next(timeoutMs: 100) {
                case .success(let message)? where message.key == key: report(.message(message))
                case .failure(let error)?:
                    logger.warning("kafka", metadata: ["error": "\(error)"])
                    report(.problem("\(topic): \(error)"))
                default: break
                }
            }
        } catch {
            logger.error("cannot follow \(topic)", metadata: ["error": "\(error)"])
            report(.problem("cannot follow \(topic): \(error)"))
        }
    }

    /// Whether a message holds a change set rather than a record: its `content-type`, else its `kind` member
    /// (wherever it sits among the top-level members).
    static func isChangeSet(_ message: KafkaMessage, _ value: [UInt8]) -> Bool {
        if let type = message.header(Wire.Header.contentType) {
            return String(decoding: type, as: UTF8.self).hasPrefix(Wire.changeSetMediaType)
        }
        guard let doc = try? JSONReader().read(value), let kind = doc.value(doc.root, Self.kindKey) else {
            return false
        }
        return doc.string(kind) == Wire.changeSetKind
    }

    static let kindKey = JSONKey(Wire.Key.kind)
}
