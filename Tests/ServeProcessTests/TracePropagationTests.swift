import ConfigReload
import CoreMetrics
import Delivery
import Foundation
import InMemoryTracing
import Kafka
import LayoutCompiler
import Logging
import Mapping
import Ops
import Serve
import TestSupport
import Testing
import Tracing

@testable import ProcessTestSupport

/// W3C trace context: every output of a message carries a child of the input's `traceparent`.
@Suite struct TracePropagationTests {
    private let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    private let parentSpan = "00f067aa0ba902b7"

    private func message(topic: String = "in", offset: Int64 = 7, headers: [KafkaHeader]) -> KafkaMessage {
        KafkaMessage(topic: topic, partition: 0, offset: offset, key: nil, value: nil, headers: headers)
    }

    @Test func aChildOfTheInputsContextDerivedFromTheMessage() async {
        await offThePool {
            let input = [
                KafkaHeader("traceparent", text: "00-\(traceID)-\(parentSpan)-01"),
                KafkaHeader("tracestate", text: "vendor=x"),
            ]
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
                #expect(
                    root.context.traceParentHeaderValue.range(
                        of: #"^00-[0-9a-f]{32}-[0-9a-f]{16}-00$"#, options: .regularExpression) != nil)
            }
            // Outputs carry the child, never the input's own context.
            let carried = OutputHeaders.carried(from: message(headers: input), trace: trace.headers)
            #expect(carried.filter { $0.name == "traceparent" }.map(\.value) == [Array(parent.utf8)])
        }
    }

    @Test func recordsChangeSetsAndDeadLettersCarryTheChild() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 1)
            let headers = [KafkaHeader("traceparent", text: "00-\(traceID)-\(parentSpan)-01")]
            let good = Array(#"{"@type":"ResultsList","name":"a","totalNumRecs":0,"records":[]}"#.utf8)
            try broker.produce(
                input,
                [(key: "a", value: good, headers: headers), (key: "b", value: Array("{".utf8), headers: headers)])
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--stop-after", "2", "--changes-topic", changes, "--latest-layout-topic", state])
            #expect(worker.wait(seconds: 60) == 0, "\(worker.logText.suffix(2000))")
            func traceparent(_ m: KafkaMessage?) -> String? {
                m?.header("traceparent").map { String(decoding: $0, as: UTF8.self) }
            }
            let record = try broker.consume(output, partitions: 1, count: 1).first
            let changeSet = try broker.consume(changes, partitions: 1, count: 1).first
            let letter = try broker.consume(dlq, partitions: 1, count: 1).first
            for m in [record, changeSet, letter] {
                let value = traceparent(m) ?? ""
                #expect(
                    value.hasPrefix("00-\(traceID)-") && value.hasSuffix("-01") && !value.contains(parentSpan),
                    "\(value)")
                #expect(m?.headers.filter { $0.name == "traceparent" }.count == 1)
            }
            // One span per message: its record and change set name the same one; the other message another.
            #expect(traceparent(record) == traceparent(changeSet))
            #expect(traceparent(record) != traceparent(letter))
        }
    }

    /// With a tracer (here swift-distributed-tracing's in-memory one): one consumer span per message, a child of the
    /// context the tracer extracts from the input, with the messaging attributes and the outcome; every output
    /// carries the context the tracer injects (and no W3C fallback of its own).
    @Test func oneSpanPerMessageWithTheTracerItIsGiven() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, group) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("g"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            let parent = [
                KafkaHeader(InMemoryTracer.traceIDKey, text: "trace-up"),
                KafkaHeader(InMemoryTracer.spanIDKey, text: "span-up"),
                KafkaHeader("kept", text: "yes"),
            ]
            let good = Array(#"{"@type":"ResultsList","name":"a","totalNumRecs":0,"records":[]}"#.utf8)
            try broker.produce(
                input,
                [
                    (key: "good", value: good, headers: parent), (key: "bad", value: Array("{".utf8), headers: parent),
                    (key: "gone", value: nil, headers: []),
                ])
            var settings = ServeSettings(
                kafka: KafkaConfiguration(bootstrapServers: broker.address, properties: broker.clientProperties),
                inputTopics: [input], outputTopic: output, deadLetterTopic: dlq, groupID: group)
            settings.stopAfter = 3
            // The test broker holds a first join for half the session timeout.
            settings.consumerProperties = [
                "session.timeout.ms": "2000", "heartbeat.interval.ms": "300", "fetch.wait.max.ms": "10",
            ]
            let tracer = InMemoryTracer()
            let worker = try LayoutWorker(
                settings: settings,
                compilers: CompilerSlot(LayoutCompiler(config: MappingConfig()), configHash: "test"),
                status: WorkerStatus(),
                metrics: WorkerMetrics(factory: NOOPMetricsHandler.instance),
                tracer: MessageTracer(tracer: tracer, group: group), logger: Logger(label: "trace-test"))
            try worker.run()
            #expect(worker.counts.consumed == 3 && worker.counts.published == 2 && worker.counts.deadLettered == 1)

            let spans = Dictionary(
                uniqueKeysWithValues: tracer.finishedSpans.map { span -> (String, FinishedInMemorySpan) in
                    guard
                        case .string(let key)? = span.attributes[MessageTracer.Attribute.messageKey]?.toSpanAttribute()
                    else { return ("?", span) }
                    return (key, span)
                })
            #expect(spans.keys.sorted() == ["bad", "gone", "good"], "\(tracer.finishedSpans.map(\.operationName))")
            #expect(tracer.activeSpans.isEmpty)
            func attribute(_ key: String, _ name: String) -> SpanAttribute? {
                spans[key]?.attributes[name]?.toSpanAttribute()
            }
            for key in ["good", "bad", "gone"] {
                #expect(spans[key]?.operationName == "process \(input)")
                #expect(spans[key]?.kind == .consumer)
                #expect(attribute(key, MessageTracer.Attribute.system) == .string("kafka"))
                #expect(attribute(key, MessageTracer.Attribute.operationType) == .string("process"))
                #expect(attribute(key, MessageTracer.Attribute.destination) == .string(input))
                #expect(attribute(key, MessageTracer.Attribute.partition) == .string("0"))
                #expect(attribute(key, MessageTracer.Attribute.consumerGroup) == .string(group))
            }
            // Children of the input's context when it has one; a new trace when it has none.
            #expect(spans["good"]?.traceID == "trace-up" && spans["good"]?.parentSpanID == "span-up")
            #expect(spans["bad"]?.traceID == "trace-up" && spans["bad"]?.parentSpanID == "span-up")
            #expect(spans["gone"]?.parentSpanID == nil && spans["gone"]?.traceID != "trace-up")
            #expect(attribute("good", MessageTracer.Attribute.offset) == .int64(0))
            #expect(attribute("good", MessageTracer.Attribute.bodySize) == .int64(Int64(good.count)))
            #expect(attribute("gone", MessageTracer.Attribute.tombstone) == .bool(true))
            #expect(attribute("good", MessageTracer.Attribute.outcome) == .string("published"))
            #expect(attribute("gone", MessageTracer.Attribute.outcome) == .string("tombstoned"))
            #expect(attribute("bad", MessageTracer.Attribute.outcome) == .string("dead-lettered"))
            #expect(attribute("bad", MessageTracer.Attribute.errorType) == .string("invalid-json"))
            #expect(spans["bad"]?.status?.code == .error && spans["good"]?.status == nil)

            // The outputs carry the tracer's context of their message's span, the input's other headers, no traceparent.
            func text(_ m: KafkaMessage?, _ name: String) -> String? {
                m?.header(name).map { String(decoding: $0, as: UTF8.self) }
            }
            let records = try broker.consume(output, partitions: 1, count: 2)
            let letter = try broker.consume(dlq, partitions: 1, count: 1).first
            let record = records.first { $0.value != nil }, tombstone = records.first { $0.value == nil }
            #expect(text(record, InMemoryTracer.spanIDKey) == spans["good"]?.spanID)
            #expect(text(record, InMemoryTracer.traceIDKey) == "trace-up")
            #expect(text(record, "kept") == "yes")
            #expect(text(letter, InMemoryTracer.spanIDKey) == spans["bad"]?.spanID)
            #expect(text(tombstone, InMemoryTracer.spanIDKey) == spans["gone"]?.spanID)
            for m in [record, letter, tombstone] {
                #expect(m?.header("traceparent") == nil)
                #expect(m?.headers.filter { $0.name == InMemoryTracer.spanIDKey }.count == 1)
            }
        }
    }
}
