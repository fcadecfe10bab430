import Foundation
import Kafka
import LayoutService
import Testing
import TestSupport

/// W3C trace context: every output of a message carries a child of the input's `traceparent`.
@Suite struct TracePropagationTests {
    private func unique(_ base: String) -> String { "\(base)-\(UUID().uuidString.prefix(8))" }
    private let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    private let parentSpan = "00f067aa0ba902b7"

    private func message(topic: String = "in", offset: Int64 = 7, headers: [KafkaHeader]) -> KafkaMessage {
        KafkaMessage(topic: topic, partition: 0, offset: offset, key: nil, value: nil, headers: headers)
    }

    @Test func aChildOfTheInputsContextDerivedFromTheMessage() {
        let input = [KafkaHeader("traceparent", text: "00-\(traceID)-\(parentSpan)-01"), KafkaHeader("tracestate", text: "vendor=x")]
        let trace = MessageTrace(of: message(headers: input))
        let parent = trace.context.traceParentHeaderValue
        #expect(parent.hasPrefix("00-\(traceID)-") && parent.hasSuffix("-01"), "\(parent)")
        #expect(!parent.contains(parentSpan))
        #expect(trace.headers.contains { $0.name == "tracestate" && $0.value == Array("vendor=x".utf8) })
        // The same message gives the same span; another offset another span.
        #expect(MessageTrace(of: message(headers: input)).context.traceParentHeaderValue == parent)
        #expect(MessageTrace(of: message(offset: 8, headers: input)).context.traceParentHeaderValue != parent)
        // No (or a malformed) traceparent: a new, unsampled trace.
        for headers in [[], [KafkaHeader("traceparent", text: "zz-not-a-context")]] {
            let root = MessageTrace(of: message(headers: headers))
            #expect(root.parent == nil)
            #expect(root.context.traceParentHeaderValue.range(of: #"^00-[0-9a-f]{32}-[0-9a-f]{16}-00$"#, options: .regularExpression) != nil)
        }
        // Outputs carry the child, never the input's own context.
        let carried = DeadLetter.carried(message(headers: input))
        #expect(carried.filter { $0.name == "traceparent" }.map(\.value) == [Array(parent.utf8)])
    }

    @Test func recordsChangeSetsAndDeadLettersCarryTheChild() throws {
        let broker = try TestBroker()
        let (input, output, dlq, changes, state) = (unique("in"), unique("out"), unique("dlq"), unique("changes"), unique("latest"))
        try broker.createTopics([input, output, dlq, changes, state], partitions: 1)
        let headers = [KafkaHeader("traceparent", text: "00-\(traceID)-\(parentSpan)-01")]
        let good = Array(#"{"@type":"ResultsList","name":"a","totalNumRecs":0,"records":[]}"#.utf8)
        try broker.produce(input, [(key: "a", value: good, headers: headers), (key: "b", value: Array("{".utf8), headers: headers)])
        let worker = try WorkerProcess(broker: broker, input: input, output: output, deadLetter: dlq, group: unique("g"),
                                       extra: ["--stop-after", "2", "--changes-topic", changes, "--state-topic", state])
        #expect(worker.wait(seconds: 60) == 0, "\(worker.logText.suffix(2000))")
        func traceparent(_ m: KafkaMessage?) -> String? { m?.header("traceparent").map { String(decoding: $0, as: UTF8.self) } }
        let record = try broker.consume(output, partitions: 1, count: 1).first
        let changeSet = try broker.consume(changes, partitions: 1, count: 1).first
        let letter = try broker.consume(dlq, partitions: 1, count: 1).first
        for m in [record, changeSet, letter] {
            let value = traceparent(m) ?? ""
            #expect(value.hasPrefix("00-\(traceID)-") && value.hasSuffix("-01") && !value.contains(parentSpan), "\(value)")
            #expect(m?.headers.filter { $0.name == "traceparent" }.count == 1)
        }
        // One span per message: its record and change set name the same one; the other message another.
        #expect(traceparent(record) == traceparent(changeSet))
        #expect(traceparent(record) != traceparent(letter))
    }
}
