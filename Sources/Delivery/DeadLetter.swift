public import Kafka
import LayoutKit

/// A dead letter: the input message as it came (key, value, headers) plus headers saying what went wrong and where
/// the message came from. A dead letter always fits the producer's size limit: when the input and its headers do
/// not, the carried headers are dropped and the value (then the key) is cut, and a header says what was cut.
public enum DeadLetter {
    /// The dead-letter topic of an output topic when none is given (`serve`, `replay`): `<output>.dead-letters`.
    public static func topic(for output: String) -> String { output + ".dead-letters" }

    /// The service's own dead-letter codes (the compiler's are `CompileFailure.Code`).
    public enum Code: String, CaseIterable, Sendable {
        /// A record (or change set, or latest layout) made from the input is above the producer's size limit, or the
        /// cluster refused it for its size.
        case recordTooLarge = "record-too-large"
        /// The cluster refused a record made from the input for what it is (e.g. the broker's validation).
        case produceFailed = "produce-failed"
        /// The worker died twice while compiling the input; it is dead-lettered without being compiled again.
        case workerCrash = "worker-crash"
    }

    /// How much of the input a dead letter keeps.
    public enum Cut: Int, Sendable, Comparable, CaseIterable {
        /// Key, value and the input's headers, as they came.
        case none
        /// The input's headers dropped; the value, then the key, cut to fit the limit.
        case fitted
        /// No value and at most 1 KiB of the key: the provenance headers only (always fits).
        case provenanceOnly

        public static func < (a: Cut, b: Cut) -> Bool { a.rawValue < b.rawValue }
    }

    /// The headers a dead letter carries: the input's own (not this worker's) with the message's trace headers
    /// (`MessageSpan.headers`), plus the error and provenance headers.
    public static func headers(
        for message: KafkaMessage, code: String, reason: String, version: String, trace: [KafkaHeader]
    ) -> [KafkaHeader] {
        OutputHeaders.carried(from: message, trace: trace)
            + provenance(for: message, code: code, reason: reason, version: version)
    }

    /// The error and provenance headers.
    static func provenance(for message: KafkaMessage, code: String, reason: String, version: String) -> [KafkaHeader] {
        var headers: [KafkaHeader] = []
        headers.reserveCapacity(7)
        headers.append(KafkaHeader(Wire.Header.errorCode, text: code))
        headers.append(KafkaHeader(Wire.Header.errorMessage, text: String(reason.prefix(2000))))
        headers += OutputHeaders.source(of: message)
        headers += OutputHeaders.sourceTime(of: message)
        headers.append(KafkaHeader(Wire.Header.workerVersion, text: version))
        return headers
    }

    /// The dead letter for `message` at cut `cut` or beyond, the first that fits `limit` bytes on the wire, with the
    /// cut it was made at.
    public static func letter(
        for message: KafkaMessage, code: String, reason: String, version: String, trace: [KafkaHeader],
        limit: Int, from cut: Cut = .none
    ) -> (key: [UInt8]?, value: [UInt8]?, headers: [KafkaHeader], cut: Cut) {
        if cut == .none {
            let headers = Self.headers(for: message, code: code, reason: reason, version: version, trace: trace)
            if KafkaMessage.wireSize(key: message.key, value: message.value, headers: headers) <= limit {
                return (message.key, message.value, headers, .none)
            }
        }
        // A cut letter drops the input's headers but keeps its trace context (one short header or two).
        let dropped = OutputHeaders.inputs(of: message, trace: trace)
        let droppedBytes = dropped.reduce(0) { $0 + $1.name.utf8.count + ($1.value?.count ?? 0) }
        let valueCount = message.value?.count ?? 0, keyCount = message.key?.count ?? 0
        func provenance(_ what: String) -> [KafkaHeader] {
            var h =
                trace
                + Self.provenance(
                    for: message, code: code, reason: String(reason.prefix(1000)) + "; dead letter cut: " + what,
                    version: version)
            h.append(KafkaHeader(Wire.Header.deadLetterCut, text: what))
            return h
        }
        if cut <= .fitted {
            // The headers' own size, with the longest description this cut can give.
            let worst = provenance(
                "dropped \(dropped.count) input headers (\(droppedBytes) bytes); value cut from \(valueCount) to \(valueCount) bytes; key cut from \(keyCount) to \(keyCount) bytes"
            )
            var room = limit - KafkaMessage.wireSize(key: nil, value: nil, headers: worst)
            if room > 0 {
                let key = message.key.map { Array($0.prefix(room)) }
                room -= key?.count ?? 0
                let value = message.value.map { Array($0.prefix(max(0, room))) }
                var parts: [String] = []
                if !dropped.isEmpty { parts.append("dropped \(dropped.count) input headers (\(droppedBytes) bytes)") }
                if let value, value.count < valueCount {
                    parts.append("value cut from \(valueCount) to \(value.count) bytes")
                }
                if let key, key.count < keyCount { parts.append("key cut from \(keyCount) to \(key.count) bytes") }
                return (key, value, provenance(parts.isEmpty ? "nothing" : parts.joined(separator: "; ")), .fitted)
            }
        }
        let key = message.key.map { Array($0.prefix(1024)) }
        var what = "dropped \(dropped.count) input headers (\(droppedBytes) bytes) and the value (\(valueCount) bytes)"
        if let key, key.count < keyCount { what += "; key cut from \(keyCount) to \(key.count) bytes" }
        return (key, nil, provenance(what), .provenanceOnly)
    }
}
