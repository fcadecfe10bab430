public import Kafka
public import LayoutCompiler
public import LayoutRecord

/// What one consumed message becomes under the rules `serve` and `replay` share.
public enum MessageOutcome: Sendable {
    /// What is published as a record: a layout record with the outline the compiler noted while writing it, or a
    /// pass-through run's input, which is not a record (bytes alone).
    public enum Body: Sendable {
        case outlined(RecordOutline)
        case raw([UInt8])

        public var bytes: [UInt8] {
            switch self {
            case .outlined(let outline): outline.bytes
            case .raw(let bytes): bytes
            }
        }

        /// The outline, for a layout record.
        public var outline: RecordOutline? { if case .outlined(let o) = self { o } else { nil } }
    }

    /// A layout record, with the code and content type (`@type` of its section, or `(page)`) of each diagnostic.
    case record(Body, diagnostics: [(code: String, contentType: String)])
    case tombstone
    case skip
    case deadLetter(code: String, reason: String)

    /// Applies the size limit (key + value + headers) and the tombstone policy of `limits`, then compiles the value.
    public static func of(
        _ message: KafkaMessage, compiler: LayoutCompiler, limits: DeliveryLimits
    ) -> MessageOutcome {
        // Key, value and headers all count: a small value can come with megabytes of headers.
        let size = message.wireSize
        if size > limits.maxMessageBytes {
            return .deadLetter(
                code: CompileFailure.Code.tooLarge.rawValue,
                reason:
                    "message of \(size) bytes (key \(message.key?.count ?? 0), value \(message.value?.count ?? 0), \(message.headers.count) headers) is larger than the limit of \(limits.maxMessageBytes) bytes"
            )
        }
        guard let value = message.value else { return limits.tombstones == .forward ? .tombstone : .skip }
        let source = RecordSource(
            topic: message.topic, partition: Int(message.partition), offset: message.offset,
            timestampMs: message.timestamp, key: message.key.flatMap { String(validating: $0, as: UTF8.self) })
        switch compiler.compile(value, source: source) {
        case .success(let compiled):
            let diagnostics = compiled.diagnostics
            guard !diagnostics.isEmpty else {
                return .record(.outlined(compiled.outline), diagnostics: [])
            }
            let types = compiled.contentTypes(atPaths: diagnostics.map(\.path))
            return .record(
                .outlined(compiled.outline),
                diagnostics: zip(diagnostics, types).map { ($0.code, $1 ?? "(page)") })
        case .failure(let failure):
            return .deadLetter(code: failure.code.rawValue, reason: failure.reason)
        }
    }
}
