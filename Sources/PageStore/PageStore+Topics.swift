/// The topics a store was filled from, told apart by their ids (KIP-516): a topic deleted and created again under
/// the same name is another topic, whose offsets mean nothing to the store's checkpoints.
extension PageStore {
    /// What the store recorded of `topic`, against the id the brokers give now.
    public enum TopicCheck: Sendable, Equatable {
        /// The topic the store was filled from (same id); or one without an id to compare, now or then (the id
        /// given now is recorded, from now on it is checked).
        case same
        /// Another topic under the same name: what the store took from `was` must be read again from `now`.
        case replaced(was: String, now: String)
    }

    /// Compares the id recorded for `topic` with `id` (nil: the brokers give none); records `id` when the store
    /// has none for it. A replaced topic's new id is recorded by `forget(_:recording:)`, once its pages are gone.
    public func check(topic: String, id: String?) throws(PageStoreError) -> TopicCheck {
        let db = try db()
        let key = PageStoreKeys.topicKey(topic)
        let recorded = try db.get(key).map { String(decoding: $0, as: UTF8.self) }
        guard let id else { return .same }
        guard let recorded else {
            try db.write([(key, Array(id.utf8))])
            return .same
        }
        return recorded == id ? .same : .replaced(was: recorded, now: id)
    }

    /// What to forget of a replaced topic.
    public enum Forgetting: Sendable {
        /// Every page and every checkpoint: the pages were all made from the topic.
        case everything
        /// These checkpoints of the topic only (its messages are read again from where a new store starts).
        case checkpoints([Int32])
    }

    /// Forgets what the store took from a replaced topic, then records its new id (a crash in between forgets it
    /// again on the next start, never trusts what was taken from the old topic).
    public func forget(_ what: Forgetting, recording topic: String, id: String) throws(PageStoreError) {
        let db = try db()
        switch what {
        case .everything:
            for prefix in [[UInt8(ascii: "p")], [UInt8(ascii: "c")]] {
                try db.deleteRange(from: prefix, to: PageStoreKeys.successor(of: prefix))
            }
        case .checkpoints(let partitions):
            try db.write(partitions.map { (PageStoreKeys.checkpointKey(topic, $0), nil) })
        }
        try db.write([(PageStoreKeys.topicKey(topic), Array(id.utf8))])
    }
}
