public import Kafka

/// What the engine produces for an input message and how the message ends.
extension DeliveryEngine {
    /// One record produced on behalf of an input message.
    public struct Part: Sendable {
        public var topic: String
        public var partition: Int32?
        public var key: [UInt8]?
        public var value: [UInt8]?
        public var headers: [KafkaHeader]
        /// Produced only once every other part of its message is acknowledged (a change set after the latest
        /// layout it leads to, so that no change set is ever published ahead of the page's stored position).
        public var afterOthers: Bool
        /// Produced only once `waitsFor` opens (a change set whose page's latest layout is stored by a later
        /// message of the batch); never, if that gate is dropped.
        public var waitsFor: Gate?
        /// Opens this gate when acknowledged; drops it when its message settles without it.
        public var opens: Gate?

        public init(
            topic: String, partition: Int32? = nil, key: [UInt8]?, value: [UInt8]?, headers: [KafkaHeader],
            afterOthers: Bool = false, waitsFor: Gate? = nil, opens: Gate? = nil
        ) {
            self.topic = topic
            self.partition = partition
            self.key = key
            self.value = value
            self.headers = headers
            self.afterOthers = afterOthers
            self.waitsFor = waitsFor
            self.opens = opens
        }

        /// Bytes this record takes on the wire at most.
        public var wireSize: Int { KafkaMessage.wireSize(key: key, value: value, headers: headers) }

        /// Why `parts` cannot be produced under the producer's `limit` (the first record above it), or nil.
        static func oversized(_ parts: [Part], limit: Int) -> String? {
            guard let big = parts.first(where: { $0.wireSize > limit }) else { return nil }
            return "the \(big.topic) record would take \(big.wireSize) bytes, above the producer's limit of \(limit) "
                + "bytes (message.max.bytes)"
        }
    }

    /// A condition parts of other messages wait for: it opens when the part that opens it is acknowledged. Every
    /// part waiting for a gate is sent before the part that opens it (`makeGate`, then the waiting messages, then
    /// the opening one), so the gate knows them all when it opens or is dropped.
    public struct Gate: Hashable, Sendable {
        let id: Int

        package init(id: Int) { self.id = id }
    }

    /// Why an input message's outputs are produced.
    public enum Purpose: Sendable, Equatable {
        case record
        case tombstone
        /// Skipped, but a page's latest layout is being cleared.
        case skip
        case deadLetter(code: String)

        var isDeadLetter: Bool { if case .deadLetter = self { true } else { false } }

        /// How a message sent for this purpose ends once its outputs are acknowledged.
        var settlement: Settlement {
            switch self {
            case .record: .published
            case .tombstone: .tombstoned
            case .skip: .skipped
            case .deadLetter(let code): .deadLettered(code: code)
            }
        }
    }

    /// How an input message ended, once all its outputs were acknowledged.
    public enum Settlement: Sendable, Equatable {
        case published
        case tombstoned
        case skipped
        case deadLettered(code: String)

        /// The word for it in logs and spans.
        public var name: String {
            switch self {
            case .published: "published"
            case .tombstoned: "tombstoned"
            case .skipped: "skipped"
            case .deadLettered: "dead-lettered"
            }
        }
    }
}
