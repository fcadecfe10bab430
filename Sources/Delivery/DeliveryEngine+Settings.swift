public import Kafka

extension DeliveryEngine {
    /// Settings shared by `serve` and `replay`.
    public struct Settings: Sendable {
        public var producer: KafkaConfiguration
        public var deadLetterTopic: String
        /// The worker version written into dead letters.
        public var version: String
        /// With records unacknowledged and no report for this long, the producer is replaced.
        public var stall: Duration
        /// First and largest wait between attempts to send records the cluster could not take.
        public var retryBackoff: (first: Duration, max: Duration) = (.milliseconds(250), .seconds(5))

        public init(producer: KafkaConfiguration, deadLetterTopic: String, version: String, stall: Duration) {
            self.producer = producer
            self.deadLetterTopic = deadLetterTopic
            self.version = version
            self.stall = stall
        }

        /// These settings with the producer's `message.max.bytes` set, unless given: twice `maxInputBytes` plus
        /// 100 kB (a record may be larger than its input), at least librdkafka's default of 1,000,000.
        func limitingRecords(toFit maxInputBytes: Int) -> Settings {
            guard producer.properties["message.max.bytes"] == nil else { return self }
            let (doubled, o1) = maxInputBytes.multipliedReportingOverflow(by: 2)
            let (sum, o2) = doubled.addingReportingOverflow(100_000)
            var adjusted = self
            adjusted.producer.properties["message.max.bytes"] = String(
                min(1_000_000_000, max(1_000_000, o1 || o2 ? Int.max : sum)))
            return adjusted
        }
    }
}
