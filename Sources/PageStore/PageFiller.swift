/// Pages read from a topic into the store: in batches of up to 4,096 pages or 16 MiB, each written atomically with the
/// checkpoint it reaches and without the write-ahead log (a catch-up is several times faster so); `finish` writes
/// the last batch and makes everything durable. A process that dies before `finish` loses a suffix of the batches,
/// each with its checkpoint, so what it lost is read from the topic again. The worker fills one input partition's
/// pages with it on assignment, the gateway its pages on a cold start; nothing else may write the store meanwhile.
public struct PageFiller {
    let store: PageStore
    let scope: PageStore.Scope
    let checkpoint: (topic: String, partition: Int32)
    private var batch = PageStore.Batch()
    private var bytes = 0
    /// Pages added (tombstones included).
    public private(set) var added = 0

    /// A filler of `scope`'s pages, whose checkpoint is `topic`'s `partition`.
    public init(_ store: PageStore, scope: PageStore.Scope, checkpoint topic: String, partition: Int32) {
        self.store = store
        self.scope = scope
        self.checkpoint = (topic, partition)
    }

    /// `page` for `key` (nil: a tombstone deletes it), read at `offset` of the checkpoint's partition.
    public mutating func add(_ key: String, _ page: StoredPage?, through offset: Int64) throws(PageStoreError) {
        batch.pages.append((scope, key, page))
        bytes += (page?.bytes ?? 0) + key.utf8.count
        added += 1
        if batch.pages.count >= 4096 || bytes >= 16 << 20 { try write(checkpoint: offset + 1) }
    }

    /// Writes what is batched with `offset` (the next offset to read) as the checkpoint, unlogged.
    public mutating func write(checkpoint offset: Int64) throws(PageStoreError) {
        batch.checkpoints = [(checkpoint.topic, checkpoint.partition, offset)]
        try store.write(batch, logged: false)
        batch = PageStore.Batch()
        bytes = 0
    }

    /// Writes the last batch with checkpoint `offset`, then makes every batch durable.
    public mutating func finish(checkpoint offset: Int64) throws(PageStoreError) {
        try write(checkpoint: offset)
        try store.persist()
    }
}
