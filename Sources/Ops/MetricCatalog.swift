public enum MetricCatalog {
    // The gateway (`layout-worker gateway`).
    public static let gatewayRecordRequests = MetricFamily(
        "layout_gateway_record_requests_total", .counter, "GET requests for a page's latest record.")
    public static let gatewayNotModified = MetricFamily(
        "layout_gateway_not_modified_total", .counter, "Record requests answered 304 (If-None-Match matched).")
    public static let gatewayRecordBytes = MetricFamily(
        "layout_gateway_record_bytes_total", .counter, "Bytes of record bodies sent (after compression).")
    public static let gatewayStreamsOpened = MetricFamily(
        "layout_gateway_streams_opened_total", .counter, "Event streams opened.")
    public static let gatewayEventsWritten = MetricFamily(
        "layout_gateway_events_written_total", .counter, "Records and change sets written to event streams.")
    public static let gatewaySlowStreamRecords = MetricFamily(
        "layout_gateway_slow_stream_records_total", .counter,
        "Records sent to a stream instead of the change sets it could not keep up with (or that left a gap).")
    public static let gatewayPages = MetricFamily("layout_gateway_pages", .gauge, "Pages held in memory.")
    public static let gatewayHeldBytes = MetricFamily(
        "layout_gateway_held_bytes", .gauge, "Bytes of records and change sets held in memory.")
    public static let gatewayStreams = MetricFamily("layout_gateway_streams", .gauge, "Event streams connected.")
    public static let gatewayEvictions = MetricFamily(
        "layout_gateway_evictions", .gauge,
        "Pages let go from memory to stay within the byte budget, since the start (read from the page store again).")
    public static let gatewayPageLookups = MetricFamily(
        "layout_gateway_page_lookups_total", .counter,
        "Page lookups by where they were answered (result: memory, disk); hit ratio = memory / all.")
    public static let gatewayPageStoreUp = MetricFamily(
        "layout_gateway_page_store_up", .gauge,
        "1 while the page store on disk is open and its writes succeed; 0 while the gateway works from memory.")
    public static let gatewayPageStoreDiskBytes = MetricFamily(
        "layout_gateway_page_store_disk_bytes", .gauge, "Bytes of the page store's files on disk.")
    public static let gatewayPageStorePages = MetricFamily(
        "layout_gateway_page_store_pages", .gauge, "Pages in the page store on disk (RocksDB's estimate).")
    public static let gatewayPageStoreUnflushed = MetricFamily(
        "layout_gateway_page_store_unflushed_pages", .gauge,
        "Pages changed in memory and not written to the page store yet (its checkpoints trail them).")
    public static let gatewayCatchUpSeconds = MetricFamily(
        "layout_gateway_catch_up_seconds", .gauge,
        "Seconds from the feed's start to ready (latest layouts read from the page store's checkpoints to the end).")
    public static let gatewayCatchUpMessages = MetricFamily(
        "layout_gateway_catch_up_messages", .gauge, "Latest-layout messages read before the gateway was ready.")
    public static let gatewayLag = MetricFamily(
        "layout_gateway_lag_messages", .gauge,
        "Messages of the latest-layout (topic=\"latest\") and change-set (topic=\"changes\") topics not read yet.")
    public static let gatewayOriginRequests = MetricFamily(
        "layout_gateway_origin_requests_total", .counter,
        "Requests to the origin (--origin) for navigation states, by outcome: fetched, not-modified, not-found, timeout, refused, origin-error, too-large, not-compiled, circuit-open."
    )
    public static let gatewayOriginAnswers = MetricFamily(
        "layout_gateway_origin_answers_total", .counter,
        "GETs of navigation states no published page holds, by how they were answered: cached (fresh), stale (while fetched again, or the origin failing), fetched (after an origin request, its own or one it waited on), failed, refused-key."
    )
    public static let gatewayOriginSeconds = MetricFamily(
        "layout_gateway_origin_seconds", .histogram, "Time of one origin request, from connecting to its last byte.")
    public static let gatewayOriginStates = MetricFamily(
        "layout_gateway_origin_states", .gauge, "Navigation states fetched from the origin and held in memory.")
    public static let gatewayOriginHeldBytes = MetricFamily(
        "layout_gateway_origin_held_bytes", .gauge, "Bytes of navigation states held in memory (--origin-max-bytes).")
    public static let gatewayOriginCircuitOpen = MetricFamily(
        "layout_gateway_origin_circuit_open", .gauge,
        "1 while the origin's circuit breaker is open (its requests fail at once for the cool-down).")
    public static let gatewayStreamsRefused = MetricFamily(
        "layout_gateway_streams_refused_total", .counter,
        "Stream requests answered 503 because the gateway follows as many streams as its limits allow.")
    public static let gatewayStreamLimit = MetricFamily(
        "layout_gateway_stream_limit", .gauge,
        "Streams this gateway follows at most (from its descriptor limit, memory and --max-streams).")
    public static let gatewayDescriptorLimit = MetricFamily(
        "layout_gateway_descriptor_limit", .gauge, "The process's file descriptor limit (soft, raised to the hard).")
    public static let gatewayChangeSetFreshness = MetricFamily(
        "layout_gateway_change_set_freshness_seconds", .histogram,
        "From the input's Kafka timestamp to its change set read by the gateway.", buckets: freshnessBuckets)
    public static let gatewayStreamFreshness = MetricFamily(
        "layout_gateway_stream_freshness_seconds", .histogram,
        "From the input's Kafka timestamp to its event written to a stream (one observation per stream).",
        buckets: freshnessBuckets)
    public static let gatewayFanOut = MetricFamily(
        "layout_gateway_fanout_seconds", .histogram,
        "From the first to the last stream one event was written to, per event loop.",
        buckets: [
            .microseconds(100), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ])
    // Accounting: consumed = published + dead-lettered + skipped + in flight.
    public static let consumed = MetricFamily(
        "layout_worker_consumed_total", .counter, "Input messages taken into processing.")
    public static let published = MetricFamily(
        "layout_worker_published_total", .counter,
        "Input messages whose layout record (or tombstone) and change set were acknowledged.")
    public static let deadLettered = MetricFamily(
        "layout_worker_dead_lettered_total", .counter, "Input messages dead-lettered, by error code.")
    public static let skipped = MetricFamily(
        "layout_worker_skipped_total", .counter, "Input messages skipped by policy (tombstones with --tombstones skip)."
    )
    public static let inFlight = MetricFamily(
        "layout_worker_in_flight", .gauge, "Input messages consumed and not yet settled.")
    public static let inFlightBytes = MetricFamily(
        "layout_worker_in_flight_bytes", .gauge,
        "Input plus output bytes consumed or produced and not yet acknowledged.")
    // The compiler.
    public static let freshness = MetricFamily(
        "layout_worker_freshness_seconds", .histogram,
        "From an input's Kafka timestamp to its layout record acknowledged on the output topic.",
        buckets: freshnessBuckets)
    /// The buckets of every freshness histogram (input to output, to the gateway, to a stream): a few milliseconds
    /// on one machine, seconds when a partition lags.
    public static let freshnessBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(75),
        .milliseconds(100), .milliseconds(150), .milliseconds(250), .milliseconds(500), .seconds(1),
        .milliseconds(2_500), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
    ]
    public static let compileSeconds = MetricFamily(
        "layout_worker_compile_seconds", .histogram, "Time to compile one message.")
    public static let diagnostics = MetricFamily(
        "layout_worker_diagnostics_total", .counter, "Diagnostics (warnings) in published records, by code.")
    // Change sets and the latest-layout store.
    public static let changeSets = MetricFamily("layout_worker_change_sets_total", .counter, "Change sets published.")
    public static let changeSetFullReplaces = MetricFamily(
        "layout_worker_change_set_full_replaces_total", .counter,
        "Lists or records a change set replaced whole instead of diffing.")
    public static let changeSetsSkipped = MetricFamily(
        "layout_worker_change_sets_skipped_total", .counter, "Change sets not made, by reason.")
    public static let changeSetsRepublished = MetricFamily(
        "layout_worker_change_sets_republished_total", .counter,
        "Change sets published again for a page's last input delivered again (their first publication may have died "
            + "with a worker).")
    public static let stepsUncarried = MetricFamily(
        "layout_worker_change_set_steps_uncarried_total", .counter,
        "Steps no longer carried with their page's latest layout (past 62 steps or 256 KiB of change sets not yet "
            + "acknowledged or committed): a crash before their change sets are acknowledged leaves them without one.")
    public static let storeBytes = MetricFamily(
        "layout_worker_state_store_bytes", .gauge, "Bytes of layouts held in memory (the cache before the page store).")
    public static let storeLayouts = MetricFamily(
        "layout_worker_state_store_layouts", .gauge, "Pages held in memory (the cache before the page store).")
    public static let storeEvictions = MetricFamily(
        "layout_worker_state_store_evictions_total", .counter,
        "Pages let go from memory to stay within --page-cache-bytes (read from the page store when needed again).")
    public static let stateRebuildSeconds = MetricFamily(
        "layout_worker_state_rebuild_seconds", .histogram,
        "Time to bring newly assigned partitions' pages up to date from the latest-layout topic.")
    public static let stateReadMessages = MetricFamily(
        "layout_worker_state_read_messages_total", .counter,
        "Latest-layout messages read on assignment (from the page store's checkpoints, or the beginning).")
    public static let pageLookups = MetricFamily(
        "layout_worker_page_lookups_total", .counter,
        "Page lookups by where they were answered (result: memory, disk); hit ratio = memory / all.")
    public static let pageStoreUp = MetricFamily(
        "layout_worker_page_store_up", .gauge,
        "1 while the page store on disk is open and its writes succeed; 0 while the worker works from memory.")
    public static let pageStoreDiskBytes = MetricFamily(
        "layout_worker_page_store_disk_bytes", .gauge, "Bytes of the page store's files on disk.")
    public static let pageStorePages = MetricFamily(
        "layout_worker_page_store_pages", .gauge, "Pages in the page store on disk (RocksDB's estimate).")
    public static let pageStoreCheckpointLag = MetricFamily(
        "layout_worker_page_store_checkpoint_lag_messages", .gauge,
        "Latest-layout messages the page store's checkpoint trailed by, per input partition, at its last assignment.")
    public static let pageStoreUnstored = MetricFamily(
        "layout_worker_page_store_unstored_pages", .gauge,
        "Pages changed in memory whose latest layout is not acknowledged and on disk yet.")
    // Delivery.
    public static let produceRetries = MetricFamily(
        "layout_worker_produce_retries_total", .counter, "Outputs produced again after a retriable failure.")
    public static let outputBlocked = MetricFamily(
        "layout_worker_output_blocked", .gauge, "1 while the output does not take records and they are being retried.")
    public static let outputBlockedSeconds = MetricFamily(
        "layout_worker_output_blocked_seconds_total", .counter, "Seconds spent with the output blocked.")
    public static let producerReplacements = MetricFamily(
        "layout_worker_producer_replacements_total", .counter, "Producers replaced after a fatal error or a stall.")
    // The group.
    public static let rebalances = MetricFamily(
        "layout_worker_rebalances_total", .counter, "Partition assignments and revocations, by kind.")
    public static let commits = MetricFamily("layout_worker_commits_total", .counter, "Offset commits sent.")
    public static let commitFailures = MetricFamily(
        "layout_worker_commit_failures_total", .counter,
        "Offset commits the coordinator refused or that failed on the way (each is sent again after a backoff).")
    public static let uncommitted = MetricFamily(
        "layout_worker_uncommitted_messages", .gauge,
        "Messages done whose offsets the coordinator has not confirmed yet, per assigned partition.")
    public static let uncommittedSeconds = MetricFamily(
        "layout_worker_uncommitted_seconds", .gauge,
        "How long the confirmed commit has trailed the done offset (0 when caught up), per assigned partition.")
    public static let assignedPartitions = MetricFamily(
        "layout_worker_assigned_partitions", .gauge, "Partitions this worker owns.")
    public static let ready = MetricFamily("layout_worker_ready", .gauge, "1 when /readyz answers 200.")
    public static let lag = MetricFamily(
        "layout_worker_partition_lag", .gauge,
        "Messages between the confirmed commit and the partition's high watermark, per assigned partition.")
    public static let lagSeconds = MetricFamily(
        "layout_worker_partition_lag_seconds", .gauge,
        "Age of the last settled message while messages wait behind it (0 when caught up), per assigned partition.")
    // librdkafka's statistics (statistics.interval.ms), per client (consumer, producer).
    public static let kafkaReplyQueue = MetricFamily(
        "layout_worker_kafka_reply_queue", .gauge, "Operations (callbacks, events) waiting in the client's reply queue."
    )
    public static let kafkaMessagesQueued = MetricFamily(
        "layout_worker_kafka_messages_queued", .gauge,
        "Messages in the client's queues (producer: waiting to be sent or acknowledged).")
    public static let kafkaRequestsSent = MetricFamily(
        "layout_worker_kafka_requests_sent_total", .counter, "Requests sent to brokers.")
    public static let kafkaBytesSent = MetricFamily(
        "layout_worker_kafka_bytes_sent_total", .counter, "Bytes sent to brokers.")
    public static let kafkaResponsesReceived = MetricFamily(
        "layout_worker_kafka_responses_received_total", .counter, "Responses received from brokers.")
    public static let kafkaBytesReceived = MetricFamily(
        "layout_worker_kafka_bytes_received_total", .counter, "Bytes received from brokers.")
    public static let kafkaBrokerUp = MetricFamily(
        "layout_worker_kafka_broker_up", .gauge, "1 when the client's connection to the broker is up.")
    public static let kafkaBrokerRTT = MetricFamily(
        "layout_worker_kafka_broker_rtt_seconds", .gauge,
        "Broker round-trip time over the last statistics window, by statistic (stat: avg, p99).")
    public static let kafkaBrokerWaiting = MetricFamily(
        "layout_worker_kafka_broker_waiting_requests", .gauge,
        "Requests sent to the broker and waiting for its response.")
    public static let kafkaConsumerLag = MetricFamily(
        "layout_worker_kafka_consumer_lag", .gauge,
        "Consumer lag as librdkafka sees it (high watermark minus committed offset), per partition.")
    public static let kafkaFetchQueue = MetricFamily(
        "layout_worker_kafka_fetch_queue_messages", .gauge,
        "Messages prefetched and waiting in the consumer's queue, per partition.")
    // The mapping config and the crash-loop breaker.
    public static let configInfo = MetricFamily(
        "layout_worker_config_info", .gauge,
        "1 for the mapping config in use (label config: XXH64 of the file, as records' layout-worker-config header), 0 for earlier ones."
    )
    public static let configReloads = MetricFamily(
        "layout_worker_config_reloads_total", .counter, "Mapping configs loaded again on SIGHUP and taken into use.")
    public static let configReloadFailures = MetricFamily(
        "layout_worker_config_reload_failures_total", .counter,
        "Mapping configs refused on SIGHUP (unreadable, or check found an error); the config in use stays.")
    public static let crashBreakerEnabled = MetricFamily(
        "layout_worker_crash_breaker_enabled", .gauge,
        "1 while the crash-loop breaker keeps its state in --crash-state-dir; 0 when it is off (on purpose or not).")
    // `replay --http`.
    public static let replayRead = MetricFamily(
        "layout_replay_read_total", .counter, "Messages of the replayed range read.")
    public static let replaySettled = MetricFamily(
        "layout_replay_settled_total", .counter,
        "Replayed messages by how they ended (result: published, tombstoned, dead-lettered, skipped; what they would be in a dry run)."
    )
    public static let replayRemaining = MetricFamily(
        "layout_replay_remaining_messages", .gauge, "Messages of the range not read yet (-1 with --follow: no end).")
    // The build and the process.
    public static let buildInfo = MetricFamily(
        "layout_worker_build_info", .gauge,
        "Always 1; the labels tell the worker's version and the librdkafka it runs on.")
    public static let processResidentMemory = MetricFamily(
        "process_resident_memory_bytes", .gauge, "Resident memory size in bytes.")
    public static let processVirtualMemory = MetricFamily(
        "process_virtual_memory_bytes", .gauge, "Virtual memory size in bytes.")
    public static let processCPUSeconds = MetricFamily(
        "process_cpu_seconds_total", .counter, "User and system CPU time spent, in seconds.")
    public static let processOpenFDs = MetricFamily("process_open_fds", .gauge, "Open file descriptors.")
    public static let processMaxFDs = MetricFamily("process_max_fds", .gauge, "The limit of open file descriptors.")
    public static let processStartTime = MetricFamily(
        "process_start_time_seconds", .gauge, "Start time of the process since the Unix epoch, in seconds.")

    /// Every family, in the order `/metrics` and the README list them.
    public static let all: [MetricFamily] = [
        consumed, published, deadLettered, skipped, inFlight, inFlightBytes, compileSeconds, diagnostics,
        changeSets, changeSetFullReplaces, changeSetsSkipped, changeSetsRepublished, stepsUncarried, storeBytes,
        storeLayouts, storeEvictions,
        stateRebuildSeconds, freshness, stateReadMessages, pageLookups, pageStoreUp, pageStoreDiskBytes, pageStorePages,
        pageStoreCheckpointLag, pageStoreUnstored,
        produceRetries, outputBlocked, outputBlockedSeconds, producerReplacements,
        rebalances, commits, commitFailures, uncommitted, uncommittedSeconds, assignedPartitions, ready, lag,
        lagSeconds,
        kafkaReplyQueue, kafkaMessagesQueued, kafkaRequestsSent, kafkaBytesSent, kafkaResponsesReceived,
        kafkaBytesReceived,
        kafkaBrokerUp, kafkaBrokerRTT, kafkaBrokerWaiting, kafkaConsumerLag, kafkaFetchQueue,
        configInfo, configReloads, configReloadFailures, crashBreakerEnabled,
        replayRead, replaySettled, replayRemaining,
        buildInfo, processResidentMemory, processVirtualMemory, processCPUSeconds, processOpenFDs, processMaxFDs,
        processStartTime,
        gatewayRecordRequests, gatewayNotModified, gatewayRecordBytes, gatewayStreamsOpened, gatewayEventsWritten,
        gatewaySlowStreamRecords, gatewayPages, gatewayHeldBytes, gatewayStreams, gatewayEvictions,
        gatewayStreamsRefused, gatewayOriginRequests, gatewayOriginAnswers, gatewayOriginSeconds, gatewayOriginStates,
        gatewayOriginHeldBytes, gatewayOriginCircuitOpen,
        gatewayStreamLimit, gatewayDescriptorLimit, gatewayChangeSetFreshness, gatewayStreamFreshness, gatewayFanOut,
        gatewayLag, gatewayPageLookups, gatewayPageStoreUp, gatewayPageStoreDiskBytes, gatewayPageStorePages,
        gatewayPageStoreUnflushed, gatewayCatchUpSeconds, gatewayCatchUpMessages,
    ]

    /// The family of this name.
    public static func family(named name: String) -> MetricFamily? { byName[name] }

    private static let byName: [String: MetricFamily] = Dictionary(
        all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
}
