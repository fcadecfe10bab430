import Delivery
import Dispatch
import Kafka
import KafkaTesting
import Logging
import Testing

/// The order `DeliveryEngine` produces a message's outputs in, against librdkafka's mock cluster: a part marked
/// `afterOthers` only once its message's other parts are acknowledged, a part waiting for a gate only once the
/// part opening it is, and never when that part's message settles without it.
@Suite(.serialized) struct DeliveryOrderTests {
    typealias Part = DeliveryEngine.Part

    /// What was acknowledged, in order, as `offset:topic`; what was dropped; how messages settled.
    final class Log {
        var acknowledged: [String] = []
        var dropped: [String] = []
        var settled: [Int64: DeliveryEngine.Settlement] = [:]
    }

    static func engine(_ mock: KafkaMockCluster, properties: [String: String] = [:]) throws -> (DeliveryEngine, Log) {
        let config = KafkaConfiguration(bootstrapServers: mock.bootstrapServers, properties: properties)
        let engine = try DeliveryEngine(
            settings: .init(producer: config, deadLetterTopic: "dlq", version: "test", stall: .seconds(30)),
            maxInputBytes: 1 << 20, metrics: nil, logger: Logger(label: "delivery-order"))
        let log = Log()
        engine.onAcknowledged = { m, part, _ in log.acknowledged.append("\(m.offset):\(part.topic)") }
        engine.onDropped = { m, part in log.dropped.append("\(m.offset):\(part.topic)") }
        engine.onSettled = { m, settlement in log.settled[m.offset] = settlement }
        return (engine, log)
    }

    static func message(_ offset: Int64) -> KafkaMessage {
        KafkaMessage(topic: "in", partition: 0, offset: offset, key: Array("p".utf8), value: Array("{}".utf8))
    }

    static func part(
        _ topic: String, bytes: Int = 10, afterOthers: Bool = false, waitsFor: DeliveryEngine.Gate? = nil,
        opens: DeliveryEngine.Gate? = nil
    ) -> Part {
        Part(
            topic: topic, partition: 0, key: Array("p".utf8), value: [UInt8](repeating: 0x61, count: bytes),
            headers: [], afterOthers: afterOthers, waitsFor: waitsFor, opens: opens)
    }

    static func cluster() throws -> KafkaMockCluster {
        let mock = try KafkaMockCluster(brokers: 1)
        for topic in ["out", "latest", "changes", "dlq"] { try mock.createTopic(topic, partitions: 1) }
        return mock
    }

    /// Sends message 1 (a record and a change set waiting for `gate`), then message 2 (`second`, opening it).
    static func sendPair(_ engine: DeliveryEngine, gate: DeliveryEngine.Gate, second: [Part]) {
        let span = MessageSpan(span: nil, headers: [])
        engine.send(
            message(1), purpose: .record, parts: [part("out"), part("changes", afterOthers: true, waitsFor: gate)],
            span: span)
        engine.send(message(2), purpose: .record, parts: second, span: span)
    }

    /// Message 1's change set waits for message 2's latest layout (a later message of the batch stores the page);
    /// each change set comes after its own message's other parts.
    @Test func aChangeSetComesAfterItsMessagesPartsAndTheGateItWaitsFor() throws {
        let mock = try Self.cluster()
        let (engine, log) = try Self.engine(mock)
        let gate = engine.makeGate()
        Self.sendPair(
            engine, gate: gate,
            second: [Self.part("out"), Self.part("latest", opens: gate), Self.part("changes", afterOthers: true)])
        #expect(engine.drain(within: .seconds(30)))
        let at = { (entry: String) in log.acknowledged.firstIndex(of: entry) ?? -1 }
        #expect(log.acknowledged.count == 5, "\(log.acknowledged)")
        #expect(at("1:changes") > at("1:out") && at("1:changes") > at("2:latest"), "\(log.acknowledged)")
        #expect(at("2:changes") > at("2:out") && at("2:changes") > at("2:latest"), "\(log.acknowledged)")
        #expect(log.settled[1] == .published && log.settled[2] == .published && log.dropped.isEmpty)
    }

    /// Message 2's latest layout is larger than the producer takes: message 2 is dead-lettered, the gate is never
    /// opened, and message 1's waiting change set is dropped (never published ahead of the stored page), while
    /// message 1 itself settles.
    @Test func aGateWhoseMessageSettlesWithoutItDropsWhatWaits() throws {
        let mock = try Self.cluster()
        let (engine, log) = try Self.engine(mock, properties: ["message.max.bytes": "20000"])
        let gate = engine.makeGate()
        Self.sendPair(engine, gate: gate, second: [Self.part("out"), Self.part("latest", bytes: 50_000, opens: gate)])
        #expect(engine.drain(within: .seconds(30)))
        #expect(log.dropped == ["1:changes"], "\(log.dropped)")
        #expect(!log.acknowledged.contains("1:changes") && !log.acknowledged.contains("2:latest"))
        #expect(log.settled[1] == .published, "\(log.settled)")
        guard case .deadLettered? = log.settled[2] else {
            Issue.record("message 2 should be dead-lettered, not \(String(describing: log.settled[2]))")
            return
        }
    }
}

/// What `DeliveryEngine` does when the cluster refuses a record, against librdkafka's mock cluster.
@Suite(.serialized) struct DeliveryRefusalTests {
    /// A record refused for what it is (the broker's validation) dead-letters its input as `produce-failed`; the
    /// messages after it are published and settle.
    @Test func aRefusedRecordIsDeadLetteredAndTheRestGoOn() throws {
        let mock = try DeliveryOrderTests.cluster()
        let (engine, log) = try DeliveryOrderTests.engine(mock, properties: ["batch.num.messages": "1"])
        mock.failNext(.produce, with: [87])  // INVALID_RECORD
        let span = MessageSpan(span: nil, headers: [])
        for offset in Int64(1)...3 {
            engine.send(
                DeliveryOrderTests.message(offset), purpose: .record, parts: [DeliveryOrderTests.part("out")],
                span: span)
        }
        #expect(engine.drain(within: .seconds(30)), "\(log.settled)")
        #expect(log.settled[1] == .deadLettered(code: "produce-failed"), "\(log.settled)")
        #expect(log.settled[2] == .published && log.settled[3] == .published, "\(log.settled)")
        #expect(log.acknowledged.contains("1:dlq"), "\(log.acknowledged)")
    }
}
