public import Delivery

/// What a replay did, per partition and in total.
public struct ReplaySummary: Codable, Sendable {
    /// One partition's part of the replay.
    public struct Partition: Codable, Sendable {
        public var partition: Int32
        /// The range asked for: `start` ..< `stop`.
        public var start: Int64
        public var stop: Int64
        /// First and last offsets actually read.
        public var first: Int64?
        public var last: Int64?
        /// How the partition's messages ended (or, in a dry run, would end).
        public var settled = SettlementCounts()

        /// Inputs compiled into a record.
        public var compiled: Int { settled.published }
        /// Tombstones (null values) forwarded as tombstones, or that would be.
        public var tombstoned: Int { settled.tombstoned }
        public var deadLettered: Int { settled.deadLettered }
        public var skipped: Int { settled.skipped }

        public init(partition: Int32, start: Int64, stop: Int64) {
            self.partition = partition
            self.start = start
            self.stop = stop
        }

        enum CodingKeys: String, CodingKey {
            case partition, start, stop, first, last, compiled, tombstoned, deadLettered, skipped
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(partition, forKey: .partition)
            try c.encode(start, forKey: .start)
            try c.encode(stop, forKey: .stop)
            try c.encodeIfPresent(first, forKey: .first)
            try c.encodeIfPresent(last, forKey: .last)
            try c.encode(compiled, forKey: .compiled)
            try c.encode(tombstoned, forKey: .tombstoned)
            try c.encode(deadLettered, forKey: .deadLettered)
            try c.encode(skipped, forKey: .skipped)
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                partition: try c.decode(Int32.self, forKey: .partition),
                start: try c.decode(Int64.self, forKey: .start),
                stop: try c.decode(Int64.self, forKey: .stop))
            first = try c.decodeIfPresent(Int64.self, forKey: .first)
            last = try c.decodeIfPresent(Int64.self, forKey: .last)
            settled.published = try c.decode(Int.self, forKey: .compiled)
            settled.tombstoned = try c.decode(Int.self, forKey: .tombstoned)
            settled.deadLettered = try c.decode(Int.self, forKey: .deadLettered)
            settled.skipped = try c.decode(Int.self, forKey: .skipped)
        }
    }

    public var topic: String
    public var toTopic: String?
    public var dryRun: Bool
    public var partitions: [Partition]
    /// Diagnostics seen, by code and by content type (`@type` of the section they concern).
    public var diagnosticsByCode: [String: Int] = [:]
    public var diagnosticsByType: [String: Int] = [:]
    /// Inputs that would be (or were) dead-lettered, by failure code (the partitions' counts, summed at the end).
    public var failuresByCode: [String: Int] = [:]
    public var elapsedSeconds: Double = 0
    /// Seconds from the start of reading to the last record read (what `--rate` governs).
    public var readSeconds: Double = 0
    /// True when the replay was stopped (Ctrl-C) before reaching the end of its range.
    public var interrupted = false

    public var totalRead: Int {
        partitions.reduce(0) { $0 + $1.settled.total }
    }
}
