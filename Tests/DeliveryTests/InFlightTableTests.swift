import Kafka
import Testing

@testable import Delivery

/// The in-flight byte budget counts the bytes a message holds: an output that is the input's own array (a
/// pass-through) once, an output of its own beside the input; an acknowledged output leaves the budget.
@Suite struct InFlightTableTests {
    static func entry(_ value: [UInt8], outputs: [[UInt8]]) -> InFlightTable.Entry {
        let message = KafkaMessage(topic: "in", partition: 0, offset: 7, key: Array("k".utf8), value: value)
        let parts = outputs.map {
            DeliveryEngine.Part(topic: "out", partition: 0, key: Array("k".utf8), value: $0, headers: [])
        }
        return InFlightTable.Entry(
            message: message, span: MessageSpan(span: nil, headers: []), purpose: .record, parts: parts)
    }

    @Test func anOutputThatIsTheInputsArrayIsCountedOnce() {
        let value = [UInt8](repeating: 0x61, count: 10_000)
        var table = InFlightTable()
        let token = table.add(Self.entry(value, outputs: [value]))
        let input = KafkaMessage.wireSize(key: Array("k".utf8), value: value, headers: [])
        let overhead = KafkaMessage.wireSize(key: Array("k".utf8), value: nil, headers: [])
        #expect(table.bytes == input + overhead)
        table.release(token, 0)
        #expect(table.bytes == input + overhead, "releasing a shared output frees none of the input's bytes")
        _ = table.remove(token)
        #expect(table.bytes == 0)
    }

    @Test func anOutputOfItsOwnIsCountedBesideTheInputEvenWithEqualBytes() {
        let value = [UInt8](repeating: 0x61, count: 10_000)
        let copy = value.map { $0 }  // equal contents, storage of its own
        var table = InFlightTable()
        let token = table.add(Self.entry(value, outputs: [copy, [UInt8](repeating: 0x62, count: 500)]))
        let input = KafkaMessage.wireSize(key: Array("k".utf8), value: value, headers: [])
        let outputs = [copy.count, 500].map {
            KafkaMessage.wireSize(key: Array("k".utf8), value: [UInt8](repeating: 0, count: $0), headers: [])
        }
        #expect(table.bytes == input + outputs[0] + outputs[1])
        table.release(token, 0)
        #expect(table.bytes == input + outputs[1] + (outputs[0] - copy.count))
        _ = table.remove(token)
        #expect(table.bytes == 0)
    }
}
