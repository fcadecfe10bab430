import LayoutJSON

/// The part of one librdkafka statistics document (`statistics.interval.ms`) the worker exports and acts on.
public struct KafkaStatistics: Sendable {
    public struct Broker: Sendable {
        public var name: String
        public var nodeID: Int
        public var state: String
        public var rttAverageMicros: Int
        public var rttP99Micros: Int
        public var waiting: Int
    }

    public struct Partition: Sendable {
        public var topic: String
        public var partition: Int
        public var consumerLag: Int
        public var fetchQueue: Int
    }

    /// `consumer` or `producer`.
    public var type = ""
    public var replyQueue = 0
    public var messagesQueued = 0
    public var requestsSent = 0
    public var bytesSent = 0
    public var responsesReceived = 0
    public var bytesReceived = 0
    /// The consumer group's state (`up` once the coordinator is known) and join state (`steady` once a member).
    public var groupState = ""
    public var groupJoinState = ""
    public var brokers: [Broker] = []
    public var partitions: [Partition] = []

    /// Brokers of the cluster (not the bootstrap or internal entries) whose connection is up.
    public var brokersUp: Int { brokers.filter { $0.nodeID >= 0 && $0.state == "UP" }.count }

    /// Whether the client is a settled member of its consumer group.
    public var isGroupMember: Bool { groupState == "up" && groupJoinState == "steady" }

    /// The brokers' connection states, e.g. `127.0.0.1:9092/1=CONNECT`.
    public var brokerStates: String { brokers.map { "\($0.name)=\($0.state)" }.joined(separator: ", ") }

    /// Reads a statistics document; nil when it is not one.
    public init?(json: [UInt8]) {
        guard let doc = try? JSONReader(maxDepth: 16).read(json), doc.kind(doc.root) == .object else { return nil }
        let root = doc.root
        func int(_ i: Int, _ key: JSONKey) -> Int { doc.value(i, key).flatMap { doc.int($0) } ?? 0 }
        type = doc.value(root, "type").flatMap { doc.string($0) } ?? ""
        replyQueue = int(root, "replyq")
        messagesQueued = int(root, "msg_cnt")
        requestsSent = int(root, "tx")
        bytesSent = int(root, "tx_bytes")
        responsesReceived = int(root, "rx")
        bytesReceived = int(root, "rx_bytes")
        if let cgrp = doc.value(root, "cgrp"), doc.kind(cgrp) == .object {
            groupState = doc.value(cgrp, "state").flatMap { doc.string($0) } ?? ""
            groupJoinState = doc.value(cgrp, "join_state").flatMap { doc.string($0) } ?? ""
        }
        if let brokers = doc.value(root, "brokers"), doc.kind(brokers) == .object {
            for (_, b) in doc.members(brokers) where doc.kind(b) == .object {
                let rtt = doc.value(b, "rtt")
                self.brokers.append(
                    Broker(
                        name: doc.value(b, "name").flatMap { doc.string($0) } ?? "",
                        nodeID: doc.value(b, "nodeid").flatMap { doc.int($0) } ?? -1,
                        state: doc.value(b, "state").flatMap { doc.string($0) } ?? "",
                        rttAverageMicros: rtt.map { int($0, "avg") } ?? 0,
                        rttP99Micros: rtt.map { int($0, "p99") } ?? 0,
                        waiting: int(b, "waitresp_cnt")))
            }
        }
        if let topics = doc.value(root, "topics"), doc.kind(topics) == .object {
            for (_, t) in doc.members(topics) where doc.kind(t) == .object {
                let topic = doc.value(t, "topic").flatMap { doc.string($0) } ?? ""
                guard let parts = doc.value(t, "partitions"), doc.kind(parts) == .object else { continue }
                for (_, p) in doc.members(parts) where doc.kind(p) == .object {
                    let number = doc.value(p, "partition").flatMap { doc.int($0) } ?? -1
                    // -1 is librdkafka's internal unassigned-partition entry; "consumer_lag" is -1 when unknown.
                    guard number >= 0, let lag = doc.value(p, "consumer_lag").flatMap({ doc.int($0) }), lag >= 0 else {
                        continue
                    }
                    partitions.append(
                        Partition(topic: topic, partition: number, consumerLag: lag, fetchQueue: int(p, "fetchq_cnt")))
                }
            }
        }
    }
}
