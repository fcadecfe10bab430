import Delivery
import Kafka
import LayoutKit
import Testing

/// Dead letters are built to fit the producer's limit whatever the input's size, and never carry this worker's own
/// headers from the input.
@Suite struct DeadLetterTests {
    func message(key: Int, value: Int, headers: [KafkaHeader]) -> KafkaMessage {
        KafkaMessage(
            topic: "in", partition: 3, offset: 42, key: [UInt8](repeating: 1, count: key),
            value: [UInt8](repeating: 2, count: value), headers: headers, timestamp: 1_700_000_000_000)
    }

    @Test func aLetterThatFitsIsTheInputAsItCame() {
        let m = message(
            key: 4, value: 100,
            headers: [KafkaHeader("trace", text: "t"), KafkaHeader("layout-worker-error-code", text: "old")])
        let letter = DeadLetter.letter(
            for: m, code: "invalid-json", reason: "why", version: "1", trace: MessageTrace(of: m).headers, limit: 10_000
        )
        #expect(letter.cut == .none && letter.value == m.value && letter.key == m.key)
        // The input's headers, its trace context as a child span, then the provenance.
        #expect(
            letter.headers.map(\.name) == [
                "trace", "traceparent", "layout-worker-error-code", "layout-worker-error-message",
                "layout-worker-source-topic",
                "layout-worker-source-partition", "layout-worker-source-offset",
                "layout-worker-source-timestamp", "layout-worker-version",
            ])
        #expect(letter.headers[2].value == Array("invalid-json".utf8))
    }

    /// Every combination of key, value and header sizes against limits from 1 kB to 64 kB: the letter always fits,
    /// keeps every provenance header, and says what was cut when it cut anything.
    @Test(arguments: [1_000, 2_500, 16_000, 65_536])
    func everyLetterFitsItsLimit(limit: Int) {
        for key in [0, 10, 900, 5_000, 70_000] {
            for value in [0, 100, 1_500, 60_000, 200_000] {
                for headerBytes in [0, 500, 100_000] {
                    let headers =
                        headerBytes == 0 ? [] : [KafkaHeader("blob", [UInt8](repeating: 3, count: headerBytes))]
                    let m = message(key: key, value: value, headers: headers)
                    let letter = DeadLetter.letter(
                        for: m, code: "too-large", reason: String(repeating: "r", count: 3_000), version: "1",
                        trace: MessageTrace(of: m).headers, limit: limit)
                    let size = KafkaMessage.wireSize(key: letter.key, value: letter.value, headers: letter.headers)
                    #expect(
                        size <= limit || letter.cut == .provenanceOnly,
                        "key \(key) value \(value) headers \(headerBytes): \(size) > \(limit)")
                    #expect(
                        letter.headers.contains { $0.name == Wire.Header.sourceOffset && $0.value == Array("42".utf8) }
                    )
                    #expect(
                        letter.headers.contains {
                            $0.name == Wire.Header.errorCode && $0.value == Array("too-large".utf8)
                        })
                    let cutNote = letter.headers.first { $0.name == Wire.Header.deadLetterCut }
                    #expect((letter.cut == .none) == (cutNote == nil))
                    if letter.cut == .fitted, let v = letter.value {
                        // Cut only as much as needed: the value is the input's prefix.
                        #expect(Array(m.value!.prefix(v.count)) == v)
                    }
                }
            }
        }
    }

    @Test func provenanceOnlyAlwaysFitsAKilobyteKeyAndTheHeaders() {
        let m = message(key: 50_000, value: 10, headers: [])
        let letter = DeadLetter.letter(
            for: m, code: "x", reason: "y", version: "1", trace: MessageTrace(of: m).headers, limit: 100)
        #expect(letter.cut == .provenanceOnly && letter.value == nil && letter.key?.count == 1024)
        let note = String(
            decoding: letter.headers.first { $0.name == Wire.Header.deadLetterCut }?.value ?? [], as: UTF8.self)
        #expect(note.contains("key cut from 50000 to 1024 bytes"))
    }
}
