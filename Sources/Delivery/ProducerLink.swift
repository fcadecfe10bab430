import Kafka
import Logging

/// A `DeliveryEngine`'s producer and its health: when it last reported, whether it must be replaced and why (a
/// fatal error, a refusal only a new producer gets past, a stall), and the replacement itself.
struct ProducerLink {
    private(set) var producer: KafkaProducer
    private let configuration: KafkaConfiguration
    /// When the producer last reported anything.
    var lastReport = ContinuousClock.now
    /// When the producer was last replaced (nil: never).
    var lastReplacement: ContinuousClock.Instant?
    /// Why the producer is to be replaced (asked for while the previous replacement was too recent, it waits).
    private(set) var replacementDue: String?
    /// Topics a record failed on as unknown since the last `refreshMissingTopics`.
    private var missingTopics: Set<String> = []

    init(configuration: KafkaConfiguration) throws(KafkaError) {
        self.configuration = configuration
        producer = try KafkaProducer(configuration: configuration, idempotent: true)
    }

    /// Asks for a replacement, unless one is already due.
    mutating func replace(because reason: String) {
        if replacementDue == nil { replacementDue = reason }
    }

    /// Notes that a record failed because the cluster did not know `topic` (or the producer has seen it missing).
    mutating func noteMissing(_ topic: String) { missingTopics.insert(topic) }

    /// Asks the cluster again about each topic noted missing, before its records are sent again: librdkafka would
    /// otherwise fail them at once until its periodic refresh, so a topic an operator creates is used within one
    /// retry instead of minutes later. An error is passed over: the records sent again report it.
    mutating func refreshMissingTopics(timeoutMs: Int32 = 1_000) {
        for topic in missingTopics.sorted() { try? producer.refreshMetadata(topic: topic, timeoutMs: timeoutMs) }
        missingTopics.removeAll()
    }

    /// After a poll: a fatal error asks for a replacement; so does no report for `limit` while records are
    /// unacknowledged (`unacknowledgedTopics` names them), and then the stall is returned, to block the output.
    mutating func check(stall limit: Duration, unacknowledged: Int, unacknowledgedTopics: () -> [String]) -> String? {
        if let fatal = producer.fatalError { replace(because: "fatal producer error: \(fatal)") }
        guard replacementDue == nil, unacknowledged > 0, ContinuousClock.now > lastReport + limit
        else { return nil }
        let stall =
            "no acknowledgement for \(Int(limit / .milliseconds(1))) ms from \(unacknowledgedTopics().joined(separator: ", "))"
        replacementDue = stall
        return stall
    }

    /// Whether a replacement is due and the last one is at least a second old.
    var replacementReady: Bool {
        guard replacementDue != nil else { return false }
        return lastReplacement.map { ContinuousClock.now >= $0 + .seconds(1) } ?? true
    }

    /// Purges the producer's queue (its reports are dropped: what it held is sent again) and makes a new one;
    /// false when it cannot (memory, threads: passing, as the same settings made the first), and the replacement
    /// stays due.
    mutating func replaceNow(inFlight: Int, logger: Logger) -> Bool {
        let reason = replacementDue ?? "asked for"
        logger.warning(
            "replacing the producer and sending what is unacknowledged again",
            metadata: ["reason": .string(reason), "in-flight": .stringConvertible(inFlight)])
        lastReplacement = .now
        replacementDue = nil
        missingTopics.removeAll()
        _ = producer.purge()
        do {
            producer = try KafkaProducer(configuration: configuration, idempotent: true)
        } catch {
            logger.error("cannot create a new producer; trying again", metadata: ["error": .string(error.description)])
            replacementDue = reason
            return false
        }
        lastReport = .now
        return true
    }
}
