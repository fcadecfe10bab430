/// What records, change sets and the Kafka messages carrying them agree on: one definition for the worker, this
/// kit and (checked by a test) the web client's `layout-client.js`.
public enum Wire {
    /// The record and change-set format version.
    public static let formatVersion = Layout.formatVersion
    /// A change set's `kind` member, which tells a change set from a record when no header says which.
    public static let changeSetKind = "layout-change-set"
    /// Media types (the `content-type` header without its `version` parameter).
    public static let recordMediaType = "application/vnd.layout-record+json"
    public static let changeSetMediaType = "application/vnd.layout-change-set+json"
    /// `content-type` of a layout record (output and latest-layout topics) and of a change set.
    public static let recordContentType = "\(recordMediaType); version=\(formatVersion)"
    public static let changeSetContentType = "\(changeSetMediaType); version=\(formatVersion)"
    /// The record before a page's first layout: a change set with `"base": null` applies to it.
    public static let emptyRecord =
        #"{"version":\#(formatVersion),"source":null,"page":null,"sections":[],"diagnostics":[]}"#

    /// Kafka header names the worker writes (and reads back from latest layouts).
    public enum Header {
        /// The media type of a record, change set or latest layout.
        public static let contentType = "content-type"
        /// The layout record format's version, on every record.
        public static let recordVersion = "layout-record-version"
        /// Every header the worker writes starts with this; incoming headers with it are not carried, so a
        /// re-driven dead letter does not stack old error codes ahead of the new one.
        public static let ownPrefix = "layout-worker-"
        /// A dead letter's code and message: what, where and why.
        public static let errorCode = "layout-worker-error-code"
        public static let errorMessage = "layout-worker-error-message"
        /// The input an output was made from; on a latest layout the offset is its page's position.
        public static let sourceTopic = "layout-worker-source-topic"
        public static let sourcePartition = "layout-worker-source-partition"
        public static let sourceOffset = "layout-worker-source-offset"
        public static let sourceTimestamp = "layout-worker-source-timestamp"
        /// On a page's latest layout, for each step whose change set may not be on the change-set topic yet (from an
        /// input the group has not committed), oldest first: the input offset and consumer group that made it
        /// (`offset@group`), then its change set (no value: a cleared page's tombstone). A worker of that group
        /// delivered the page's last input again publishes them again.
        public static let stepInput = "layout-worker-step-input"
        public static let step = "layout-worker-step"
        /// The worker version that wrote a dead letter.
        public static let workerVersion = "layout-worker-version"
        /// Present when a dead letter had to be cut to fit: what was dropped or shortened.
        public static let deadLetterCut = "layout-worker-dead-letter-cut"
        /// The config a record or change set was made with: XXH64 of the config file, 16 hex digits.
        public static let config = "layout-worker-config"
        /// W3C trace context.
        public static let traceParent = "traceparent"
        public static let traceState = "tracestate"
    }
}
