import CRdKafka

/// A consumer, in a group (subscribe) or standalone (assign). Use it from one thread.
public final class KafkaConsumer {
    private let handle: OpaquePointer
    private let box: RebalanceBox
    private let inGroup: Bool
    private var closed = false

    /// What a consumer is always made with, whatever its configuration says.
    public static func requiredProperties(groupID: String?, reportsPartitionEnd: Bool = false) -> [String: String] {
        [
            "enable.auto.commit": "false", "enable.auto.offset.store": "false",
            "enable.partition.eof": String(reportsPartitionEnd),
            "group.id": groupID ?? "layout-worker-standalone-unused",
        ]
    }

    /// A consumer. With `groupID`, offsets are committed only by `commit` (auto commit and auto store are off, and
    /// stay off whatever the configuration says). `defaults` apply where the configuration's properties are silent.
    /// With `reportsPartitionEnd`, reaching the end of a partition is reported (`enable.partition.eof`).
    public init(
        configuration: KafkaConfiguration, groupID: String?, defaults: [String: String] = [:],
        reportsPartitionEnd: Bool = false
    ) throws(KafkaError) {
        let box = RebalanceBox(configuration: configuration)
        let required = Self.requiredProperties(groupID: groupID, reportsPartitionEnd: reportsPartitionEnd)
        let conf = try configuration.makeConf(defaults: defaults, required: required, callbacks: box)
        if groupID != nil {
            rd_kafka_conf_set_rebalance_cb(conf) { rk, err, partitions, opaque in
                guard let rk, let partitions, let opaque else { return }
                guard let box = Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue() as? RebalanceBox
                else { return }
                let list = [Partition](UnsafePointer(partitions))
                let cooperative = String(cString: rd_kafka_rebalance_protocol(rk)) == "COOPERATIVE"
                if err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS {
                    box.applyStartOffsets(partitions)
                    if cooperative {
                        if let e = rd_kafka_incremental_assign(rk, partitions) {
                            box.lastError = KafkaError(consuming: e)
                        }
                    } else {
                        let e = rd_kafka_assign(rk, partitions)
                        if e != RD_KAFKA_RESP_ERR_NO_ERROR { box.lastError = KafkaError(e) }
                    }
                    box.handler?(.assigned(list))
                } else {
                    box.handler?(.revoked(list))
                    if cooperative {
                        if let e = rd_kafka_incremental_unassign(rk, partitions) {
                            box.lastError = KafkaError(consuming: e)
                        }
                    } else {
                        _ = rd_kafka_assign(rk, nil)
                    }
                }
            }
            rd_kafka_conf_set_offset_commit_cb(conf) { _, err, offsets, opaque in
                guard let opaque else { return }
                guard let box = Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue() as? RebalanceBox
                else { return }
                box.commitHandler?(CommitResult.results(err, offsets.map { UnsafePointer($0) }))
            }
        }
        var errstr = [CChar](repeating: 0, count: 512)
        guard let rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, &errstr, errstr.count) else {
            rd_kafka_conf_destroy(conf)
            throw .configuration("cannot create consumer: " + String(errorBuffer: errstr))
        }
        rd_kafka_poll_set_consumer(rk)
        handle = rk
        self.box = box
        inGroup = groupID != nil
    }

    deinit {
        close()
        rd_kafka_destroy(handle)
    }

    /// Called during `poll` and `close` when partitions are assigned or revoked.
    public func onRebalance(_ handler: @escaping (RebalanceEvent) -> Void) { box.handler = handler }

    /// Called during `poll` with partitions about to be assigned; returns those that start at another offset than
    /// the group's committed one (with that offset).
    public func onAssigning(startOffsets: @escaping ([Partition]) -> [Position]) {
        box.startOffsets = startOffsets
    }

    /// Called during `poll` with the coordinator's answer to each asynchronous `commit`.
    public func onCommitted(_ handler: @escaping ([CommitResult]) -> Void) { box.commitHandler = handler }

    /// Joins the group for these topics; a name starting with `^` is a regular expression.
    public func subscribe(_ topics: [String]) throws(KafkaError) {
        let list = rd_kafka_topic_partition_list_new(Int32(topics.count))!
        defer { rd_kafka_topic_partition_list_destroy(list) }
        for t in topics { rd_kafka_topic_partition_list_add(list, t, RD_KAFKA_PARTITION_UA) }
        let err = rd_kafka_subscribe(handle, list)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
    }

    /// Reads exactly these partitions from these offsets, without joining a group.
    public func assign(_ partitions: [Position]) throws(KafkaError) {
        let list = partitions.makeList()
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_assign(handle, list)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
    }

    /// The next message within `timeoutMs`, an error event, or nil when nothing arrived.
    public func poll(timeoutMs: Int32) -> Result<KafkaMessage, KafkaError>? {
        switch pollEvent(timeoutMs: timeoutMs) {
        case .message(let m)?: .success(m)
        case .error(let e)?: .failure(e)
        case .partitionEnd?: .failure(KafkaError(RD_KAFKA_RESP_ERR__PARTITION_EOF))
        case nil: nil
        }
    }

    /// What one poll can bring.
    public enum Event {
        case message(KafkaMessage)
        /// The end of a partition was reached (with `reportsPartitionEnd`); `offset` is the next one to be written.
        case partitionEnd(topic: String, partition: Int32, offset: Int64)
        case error(KafkaError)
    }

    /// The next message, end of partition or error within `timeoutMs`, or nil when nothing arrived.
    public func pollEvent(timeoutMs: Int32) -> Event? {
        guard let m = rd_kafka_consumer_poll(handle, timeoutMs) else { return nil }
        defer { rd_kafka_message_destroy(m) }
        if KafkaError.Code(m.pointee.err) == .partitionEOF, let rkt = m.pointee.rkt {
            return .partitionEnd(
                topic: String(cString: rd_kafka_topic_name(rkt)), partition: m.pointee.partition,
                offset: m.pointee.offset)
        }
        if m.pointee.err != RD_KAFKA_RESP_ERR_NO_ERROR {
            let text = m.pointee.payload.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: m.pointee.len), as: UTF8.self)
            }
            return .error(KafkaError(m.pointee.err, message: text))
        }
        return .message(KafkaMessage(m))
    }

    /// Sends a commit of these offsets (each the next offset to read) without waiting: the coordinator's answer
    /// arrives through `onCommitted` during a later `poll`. `commitNow` waits for it.
    public func commit(_ offsets: [Position]) throws(KafkaError) {
        guard !offsets.isEmpty else { return }
        let list = offsets.makeList()
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_commit(handle, list, 1)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR__NO_OFFSET { throw KafkaError(err) }
    }

    /// Commits these offsets and waits for the coordinator: each partition's own result (a synchronous
    /// `rd_kafka_commit` reports an error only when every partition failed).
    public func commitNow(_ offsets: [Position]) -> [CommitResult] {
        guard !offsets.isEmpty else { return [] }
        let list = offsets.makeList()
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let box = CommitResultBox()
        let err = withExtendedLifetime(box) {
            rd_kafka_commit_queue(
                handle, list, nil,
                { _, err, offsets, opaque in
                    guard let opaque else { return }
                    let box = Unmanaged<CommitResultBox>.fromOpaque(opaque).takeUnretainedValue()
                    box.results = CommitResult.results(err, offsets.map { UnsafePointer($0) })
                }, Unmanaged.passUnretained(box).toOpaque())
        }
        if let results = box.results, !results.isEmpty { return results }
        let error: KafkaError? =
            err == RD_KAFKA_RESP_ERR_NO_ERROR || err == RD_KAFKA_RESP_ERR__NO_OFFSET ? nil : KafkaError(err)
        return offsets.map { CommitResult(position: $0, error: error) }
    }

    /// The group's committed offsets for these partitions (`Offset.invalid` when none).
    public func committed(_ partitions: [Partition], timeoutMs: Int32 = 10_000) throws(KafkaError)
        -> [Position]
    {
        let list = partitions.makeList()
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_committed(handle, list, timeoutMs)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
        return [Position](UnsafePointer(list))
    }

    /// The partitions currently assigned.
    public func assignment() throws(KafkaError) -> [Position] {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        let err = rd_kafka_assignment(handle, &list)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
        guard let list else { return [] }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        return [Position](UnsafePointer(list))
    }

    /// Stops fetching these partitions (polling still serves rebalances).
    public func pause(_ partitions: [Partition]) {
        guard !partitions.isEmpty else { return }
        let list = partitions.makeList()
        defer { rd_kafka_topic_partition_list_destroy(list) }
        _ = rd_kafka_pause_partitions(handle, list)
    }

    /// Fetches these partitions again.
    public func resume(_ partitions: [Partition]) {
        guard !partitions.isEmpty else { return }
        let list = partitions.makeList()
        defer { rd_kafka_topic_partition_list_destroy(list) }
        _ = rd_kafka_resume_partitions(handle, list)
    }

    /// The cluster's id (from the metadata; nil when no broker answers within `timeoutMs`).
    public func clusterID(timeoutMs: Int32 = 5_000) -> String? {
        guard let id = rd_kafka_clusterid(handle, timeoutMs) else { return nil }
        defer { rd_kafka_mem_free(handle, id) }
        return String(cString: id)
    }

    /// The cluster's id, waiting up to `timeoutMs` for a broker to tell it; none in time is a retriable timeout.
    public func knownClusterID(timeoutMs: Int32 = 10_000) throws(KafkaError) -> String {
        guard let id = clusterID(timeoutMs: timeoutMs) else {
            throw .timedOut("no broker told the cluster id within \(timeoutMs / 1000) s")
        }
        return id
    }

    /// Low and high watermarks as last seen in fetch responses (no broker round trip).
    public func cachedWatermarks(topic: String, partition: Int32) -> (low: Int64, high: Int64)? {
        var low: Int64 = 0, high: Int64 = 0
        let err = rd_kafka_get_watermark_offsets(handle, topic, partition, &low, &high)
        return err == RD_KAFKA_RESP_ERR_NO_ERROR ? (low, high) : nil
    }

    /// Low and high watermarks from the broker.
    public func queryWatermarks(topic: String, partition: Int32, timeoutMs: Int32 = 5_000) throws(KafkaError) -> (
        low: Int64, high: Int64
    ) {
        var low: Int64 = 0, high: Int64 = 0
        let err = rd_kafka_query_watermark_offsets(handle, topic, partition, &low, &high, timeoutMs)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
        return (low, high)
    }

    /// For each partition (its `offset` holding a timestamp in ms), the earliest offset whose timestamp is at or
    /// after it; -1 when there is none. Answers come from the broker as they are: check them (see `ReplayRange`).
    public func offsetsForTimes(_ partitions: [Position], timeoutMs: Int32 = 10_000) throws(KafkaError)
        -> [Position]
    {
        let list = partitions.makeList()
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_offsets_for_times(handle, list, timeoutMs)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
        return [Position](UnsafePointer(list))
    }

    /// Leaves the group (revoking partitions through the handler first); the consumer cannot be used afterwards.
    /// A group member gives its partitions up before it closes: it unsubscribes and serves the revocation for up to
    /// `revokeWithinMs`, then closes. librdkafka's close can wait forever when the group hands out an assignment
    /// while it runs (cooperative rebalancing: librdkafka issues 4527 and 4884; a worker stopped during a rolling
    /// restart hung there for minutes). Messages read meanwhile are dropped: nothing committed them, so the
    /// partitions' next owner reads them.
    public func close(revokeWithinMs: Int = 5_000) {
        guard !closed else { return }
        closed = true
        if inGroup {
            rd_kafka_unsubscribe(handle)
            let deadline = ContinuousClock.now + .milliseconds(revokeWithinMs)
            while ContinuousClock.now < deadline, (try? assignment())?.isEmpty == false {
                if let message = rd_kafka_consumer_poll(handle, 20) { rd_kafka_message_destroy(message) }
            }
        }
        rd_kafka_consumer_close(handle)
    }
}
