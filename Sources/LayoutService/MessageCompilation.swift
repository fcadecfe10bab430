public import Kafka
public import LayoutCompiler
import LayoutRecord

/// What one consumed message becomes under the rules `serve` and `replay` share.
public enum MessageOutcome: Sendable {
    /// A layout record, with the code and content type (`@type` of its section, or `(page)`) of each diagnostic.
    case record([UInt8], diagnostics: [(code: String, contentType: String)])
    case tombstone
    case skip
    case deadLetter(code: String, reason: String)

    /// Applies the tombstone policy and the size limit, then compiles the value.
    public static func of(_ message: KafkaMessage, compiler: LayoutCompiler, tombstones: ServeSettings.TombstonePolicy,
                          maxMessageBytes: Int) -> MessageOutcome {
        guard let value = message.value else { return tombstones == .forward ? .tombstone : .skip }
        if value.count > maxMessageBytes {
            return .deadLetter(code: "too-large", reason: "message of \(value.count) bytes is larger than the limit of \(maxMessageBytes) bytes")
        }
        let source = RecordSource(topic: message.topic, partition: Int(message.partition), offset: message.offset,
                                  timestampMs: message.timestamp, key: message.key.flatMap { String(validating: $0, as: UTF8.self) })
        switch compiler.compile(value, source: source) {
        case .success(let compiled):
            let diagnostics = compiled.diagnostics
            guard !diagnostics.isEmpty else { return .record(compiled.bytes, diagnostics: []) }
            let types = compiled.contentTypes(ofSections: diagnostics.map(\.path))
            return .record(compiled.bytes, diagnostics: zip(diagnostics, types).map { ($0.code, $1 ?? "(page)") })
        case .failure(let failure):
            return .deadLetter(code: failure.code.rawValue, reason: failure.description)
        }
    }
}
