import Delivery
import Dispatch
import Foundation
import Kafka
import Logging
import Ops

/// The worker's side of the consumer group: the consumer, which offsets are done and confirmed (`OffsetTracker`),
/// rebalances, where returning partitions resume, commits and their answers, pausing, and lag. Partitions are
/// `Partition`s, offsets travel with theirs as `Position`s; it runs on the loop's thread.
///
/// Rebalances happen inside `fetch` (librdkafka calls back from its poll): the session tells its `Rebalancing`
/// at the moments the rest of the worker must act, commits on revoke itself, and drops the messages of partitions
/// revoked during that poll from the batch it returns (they belong to the new owner).
final class ConsumerSession {
    let consumer: KafkaConsumer
    private let settings: ServeSettings
    private let status: WorkerStatus
    private let metrics: WorkerMetrics
    private let logger: Logger
    private var tracker = OffsetTracker()
    private(set) var assigned: Set<Partition> = []
    /// Partitions paused because the output is blocked (a wait that may outlast `max.poll.interval.ms`).
    private var paused = false
    private var revokedDuringPoll: Set<Partition> = []
    /// Set by `close`: the worker has stopped, and what the group hands out while it leaves is not taken.
    private var leaving = false
    private var lastCommit = ContinuousClock.now
    /// Per partition: the timestamp (ms) of the last settled message, for lag in seconds.
    private var lastSettledTimestamp: [Partition: Int64] = [:]
    /// When partitions were first assigned.
    private(set) var firstAssigned: ContinuousClock.Instant?
    /// A fatal consumer error: the worker stops.
    private(set) var fatal: KafkaError?

    init(settings: ServeSettings, status: WorkerStatus, metrics: WorkerMetrics, logger: Logger) throws(KafkaError) {
        (self.settings, self.status, self.metrics, self.logger) = (settings, status, metrics, logger)
        // Precedence: the worker's defaults < --kafka-property < --consumer-property.
        var config = settings.consumerKafka
        // librdkafka's statistics become metrics; the consumer's also tell membership and broker reachability.
        config.statisticsHandler = { [status, metrics] json in
            guard let stats = KafkaStatistics(json: json) else { return }
            metrics.statistics(stats)
            if stats.isGroupMember { status.setJoined(true) }
            if stats.brokersUp > 0 {
                status.setUnreachable(nil)
            } else if status.unreachable == nil {
                status.setAllBrokersDown("no broker connection is up (\(stats.brokerStates))")
            }
        }
        config.errorHandler = { [status, logger] error in
            if error.code == .allBrokersDown {
                status.setAllBrokersDown(error.message)
            } else if error.code == .transport {
                status.noteConnectionError(error.message)  // the most precise reason: which broker, and why
            }
            logger.warning("kafka consumer error", metadata: ["error": .string(error.description)])
        }
        consumer = try KafkaConsumer(
            configuration: config, groupID: settings.groupID, defaults: ServeSettings.defaultConsumerProperties)
    }

    /// Joins the group on the input topics; `rebalancing` is told of every assignment and revocation from now on.
    func subscribe(_ rebalancing: Rebalancing) throws(KafkaError) {
        consumer.onRebalance { [unowned self] event in self.rebalanced(event, rebalancing) }
        consumer.onAssigning { [unowned self] partitions in self.resumeOffsets(partitions) }
        consumer.onCommitted { [unowned self] results in self.commitAnswered(results) }
        try consumer.subscribe(settings.inputTopics)
    }

    // MARK: Messages

    /// Reads up to `limit` messages and no more than `maxBytes` of input (at least one message, so a message larger
    /// than the budget still goes through). Idle, the consumer may hold the loop 100 ms; with outputs awaiting
    /// their acknowledgement (`awaiting`) it waits on them instead: a change set is produced once its latest layout
    /// is acknowledged, and a 100 ms poll here would add up to 100 ms to every change set's freshness.
    func fetch(limit: Int, maxBytes: Int, awaiting: ((Int32) -> Void)?) -> [KafkaMessage] {
        var batch: [KafkaMessage] = []
        var bytes = 0
        revokedDuringPoll.removeAll()
        while batch.count < limit && bytes < maxBytes && !status.stopRequested {
            let waiting = batch.isEmpty ? awaiting : nil
            guard let result = consumer.poll(timeoutMs: batch.isEmpty && waiting == nil ? 100 : 0) else {
                waiting?(5)
                break
            }
            switch result {
            case .success(let m):
                if batch.isEmpty, status.unreachable != nil { status.setUnreachable(nil) }
                bytes += m.wireSize
                batch.append(m)
            case .failure(let e):
                if e.isFatal {
                    fatal = e
                    return []
                }
                if let topic = e.missingSubscribedTopic { status.setInputMissing(topic, true) }
                logger.warning("consumer error", metadata: ["error": .string(e.description)])
            }
        }
        if limit == 0 { _ = consumer.poll(timeoutMs: 50) }
        if !revokedDuringPoll.isEmpty {
            batch.removeAll { revokedDuringPoll.contains($0.position.partition) }
        }
        return batch
    }

    /// The offset before which every input of `partition` is done (its outputs acknowledged): the confirmed commit,
    /// else where the consumer started on it; nil before its first message.
    func doneBefore(_ partition: Partition) -> Int64? {
        tracker.committedOffset(partition) ?? tracker.firstOffset(partition)
    }

    /// A message was consumed: its offset is in progress.
    func begin(_ message: KafkaMessage) { tracker.begin(message.position) }

    /// A message is accounted for (its outputs acknowledged, or skipped): its offset is done.
    func settled(_ message: KafkaMessage) {
        tracker.complete(message.position)
        if let t = message.timestamp { lastSettledTimestamp[message.position.partition] = t }
    }

    /// Pauses the assigned partitions while the output is blocked (the wait can outlast `max.poll.interval.ms`, and
    /// the consumer must keep polling to stay in the group), and resumes them after.
    func pause(_ blocked: Bool) {
        guard blocked != paused else { return }
        if blocked { consumer.pause(Array(assigned)) } else { consumer.resume(Array(assigned)) }
        paused = blocked
    }

    /// The id of the cluster the group's consumer is connected to (`KafkaConsumer.knownClusterID`).
    func clusterID() throws(KafkaError) -> String { try consumer.knownClusterID() }

    // MARK: Commits

    /// Whether `--commit-interval-ms` has passed since the last commit.
    var commitDue: Bool { ContinuousClock.now >= lastCommit + settings.commitInterval }

    /// Commits every partition whose done offset the coordinator has not confirmed (and whose retry backoff is
    /// over). Asynchronously the answer arrives during a later poll (`commitAnswered`); synchronously (on revoke and
    /// at shutdown) this waits for it.
    func commit(synchronous: Bool) {
        lastCommit = .now
        let offsets = tracker.committable(all: synchronous)
        guard !offsets.isEmpty else { return }
        metrics.commitSent()
        if synchronous {
            commitAnswered(consumer.commitNow(offsets))
            return
        }
        tracker.requested(offsets)
        do {
            try consumer.commit(offsets)
        } catch {
            commitAnswered(offsets.map { CommitResult(position: $0, error: error) })
        }
    }

    /// The coordinator's answer to a commit: confirmed offsets count as committed; failed ones are sent again after
    /// a backoff (or, for a partition revoked meanwhile, remembered for its return).
    private func commitAnswered(_ results: [CommitResult]) {
        var failures: [String] = []
        var wait = Duration.zero
        for r in results {
            if let error = r.error {
                failures.append("\(r.position): \(error.name)")
                wait = max(wait, tracker.failed(r.position))
            } else {
                tracker.confirmed(r.position)
            }
        }
        guard !failures.isEmpty else { return }
        metrics.commitFailed()
        logger.warning(
            "commit failed; sending it again",
            metadata: [
                "partitions": .string(failures.joined(separator: ", ")),
                "retry-in-ms": .stringConvertible(Int(wait / .milliseconds(1))),
            ])
    }

    /// Partitions coming back whose done offsets no confirmed commit covers resume there, not at the group's
    /// committed offset (which would read those messages again), unless the group has committed further since, or
    /// has no commit for the partition at all: then the cluster lost the group's offsets or the topic was made
    /// anew, the remembered offset may point into another partition's messages, and reading again (at-least-once)
    /// is safe where skipping is not.
    private func resumeOffsets(_ partitions: [Partition]) -> [Position] {
        var moved: [Position] = []
        for p in partitions {
            guard let offset = tracker.resumeOffset(p) else { continue }
            let committed =
                (try? consumer.committed([p], timeoutMs: 5_000))?
                .first?.offset ?? Offset.invalid
            if committed < 0 {
                logger.warning(
                    "the group has no commit for a partition this worker had read: not resuming from memory",
                    metadata: ["partition": .string(p.description), "remembered": .stringConvertible(offset)])
                continue
            }
            if committed >= offset { continue }
            let resumed = p.at(offset)
            tracker.resumed(resumed)
            moved.append(resumed)
        }
        if !moved.isEmpty {
            logger.info(
                "resuming partitions where this worker's unconfirmed commit left them",
                metadata: ["partitions": .string(moved.map(\.description).joined(separator: ","))])
        }
        return moved
    }

    // MARK: Rebalances and lag

    private func rebalanced(_ event: RebalanceEvent, _ rebalancing: Rebalancing) {
        if leaving, let ignored = Self.whileLeaving(event, owned: assigned) {
            logger.info(
                "partitions handed out while leaving the group; not taken", metadata: ["partitions": .string(ignored)])
            return
        }
        switch event {
        case .assigned(let partitions):
            if firstAssigned == nil { firstAssigned = .now }
            status.setJoined(true)
            for topic in Set(partitions.map(\.topic)) { status.setInputMissing(topic, false) }
            assigned.formUnion(partitions)
            rebalancing.assigned(partitions)
            if paused { consumer.pause(partitions) }
            logger.info("partitions assigned", metadata: ["partitions": .string(Self.list(partitions))])
        case .revoked(let partitions):
            // Finish what is in flight for these partitions (bounded), commit it, and forget them.
            rebalancing.revoking(partitions)
            commit(synchronous: true)
            for p in partitions { forget(p) }
            rebalancing.revoked(partitions)
            logger.info("partitions revoked", metadata: ["partitions": .string(Self.list(partitions))])
        }
        status.setAssigned(assigned.count)
        metrics.rebalanced(
            assigned: { if case .assigned = event { true } else { false } }(), partitions: assigned.count)
        metrics.ready(status.readiness.passes)
    }

    /// Forgets a revoked partition (its messages in this poll's batch are dropped; its unconfirmed done offset is
    /// kept for its return).
    private func forget(_ p: Partition) {
        assigned.remove(p)
        revokedDuringPoll.insert(p)
        lastSettledTimestamp[p] = nil
        metrics.partitionGone(topic: p.topic, partition: p.number)
        if let next = tracker.nextOffset(p), next != tracker.committedOffset(p) {
            logger.warning(
                "revoked before the commit was confirmed; resuming at \(next) if the partition comes back",
                metadata: ["partition": .string(p.description)])
        }
        let abandoned = tracker.remove(p)
        if abandoned > 0 {
            logger.warning(
                "abandoned in-flight messages of a revoked partition (they will be redelivered)",
                metadata: ["partition": .string(p.description), "count": .stringConvertible(abandoned)])
        }
    }

    /// Per assigned partition: messages behind the high watermark from the confirmed commit (what a restart would
    /// read again), the age of the last settled message while messages wait behind it, and how far and for how
    /// long the confirmed commit trails what is done.
    func updateLag() {
        let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
        for p in assigned {
            let uncommitted = tracker.uncommitted(p)
            metrics.uncommitted(
                topic: p.topic, partition: p.number, messages: uncommitted.messages, seconds: uncommitted.seconds)
            guard let (_, high) = consumer.cachedWatermarks(topic: p.topic, partition: p.number), high >= 0 else {
                continue
            }
            let from =
                tracker.committedOffset(p) ?? tracker.nextOffset(p).map { $0 - uncommitted.messages } ?? high
            let behind = max(0, high - from)
            var seconds = 0.0
            if behind > 0, let last = lastSettledTimestamp[p], last > 0, nowMs > last {
                seconds = Double(nowMs - last) / 1000
            }
            metrics.lag(topic: p.topic, partition: p.number, messages: behind, seconds: seconds)
        }
    }

    /// Leaves the group. The worker has drained, committed and closed its pages: partitions the group hands out
    /// meanwhile are given back untouched (`KafkaConsumer.close` serves the rebalances until none is assigned).
    func close() {
        leaving = true
        consumer.close()
    }
}
