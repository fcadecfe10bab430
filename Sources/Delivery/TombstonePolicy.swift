/// What to do with a tombstone (a message with a null value).
public enum TombstonePolicy: String, Sendable, CaseIterable {
    /// Publish a tombstone for the same key to the output topic.
    case forward
    /// Count it as skipped.
    case skip
}
