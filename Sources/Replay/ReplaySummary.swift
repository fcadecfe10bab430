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
        /// Inputs compiled into a record.
        public var compiled = 0
        /// Tombstones (null values) forwarded as tombstones, or that would be.
        public var tombstoned = 0
        public var deadLettered = 0
        public var skipped = 0
    }

    public var topic: String
    public var toTopic: String?
    public var dryRun: Bool
    public var partitions: [Partition]
    /// Diagnostics seen, by code and by content type (`@type` of the section they concern).
    public var diagnosticsByCode: [String: Int] = [:]
    public var diagnosticsByType: [String: Int] = [:]
    /// Inputs that would be (or were) dead-lettered, by failure code.
    public var failuresByCode: [String: Int] = [:]
    public var elapsedSeconds: Double = 0
    /// Seconds from the start of reading to the last record read (what `--rate` governs).
    public var readSeconds: Double = 0
    /// True when the replay was stopped (Ctrl-C) before reaching the end of its range.
    public var interrupted = false

    public var totalRead: Int {
        partitions.reduce(0) { $0 + $1.compiled + $1.tombstoned + $1.deadLettered + $1.skipped }
    }
}
