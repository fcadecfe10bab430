import ConfigReload
import Delivery
import Dispatch
import Kafka
import LayoutCompiler
import Logging
import Ops
import Tracing

/// Backpressure, readiness and shutdown: how the loop paces itself and how it ends.
extension LayoutWorker {
    /// Stops fetching while the in-flight messages or bytes are at their limits, by not polling: librdkafka keeps
    /// what it prefetched (bounded by `queued.max.messages.kbytes`, 8 MiB by default), so nothing is fetched twice.
    /// While the output is blocked the partitions are paused instead (`ConsumerSession.pause`).
    func applyBackpressure() {
        let messages = delivery.inFlightMessages, bytes = delivery.inFlightBytes
        let blocked = delivery.blocked != nil
        session.pause(blocked)
        // Fetching stops at either limit and starts again below three quarters of both, so batches stay large.
        let limits = settings.limits
        let atLimit = limits.isFull(messages: messages, bytes: bytes)
        let belowResume = messages <= limits.maxInFlight / 4 * 3 && bytes <= limits.maxInFlightBytes / 4 * 3
        if full ? belowResume : atLimit {
            full.toggle()
            logger.debug(
                full ? "paused fetching" : "resumed fetching",
                metadata: ["in-flight": .stringConvertible(messages), "in-flight-bytes": .stringConvertible(bytes)])
        }
        if full || blocked { delivery.service(timeoutMs: blocked ? 20 : 2) }
    }

    /// Publishes readiness as a metric and, while no broker can be reached, says so every 30 s with the reason.
    func reportReadiness() {
        metrics.ready(status.readiness.passes)
        guard let reason = status.unreachable else {
            lastUnreachableWarning = nil
            return
        }
        if let last = lastUnreachableWarning, ContinuousClock.now < last + .seconds(30) { return }
        lastUnreachableWarning = .now
        logger.warning(
            "cannot reach the brokers",
            metadata: ["brokers": .string(settings.kafka.bootstrapServers), "reason": .string(reason)])
    }

    func shutdown() {
        logger.info("draining", metadata: ["in-flight": .stringConvertible(delivery.inFlightMessages)])
        // What the latest-layout store holds before the partitions are revoked (bounded by --page-cache-bytes).
        let held = pages?.held
        _ = delivery.drain(within: settings.shutdownTimeout * 3 / 4)
        session.commit(synchronous: true)
        pages?.close()
        delivery.abandonUnsettled("the worker stopped before the outputs were acknowledged")
        session.close()
        metrics.inFlight(messages: delivery.inFlightMessages, bytes: delivery.inFlightBytes)
        metrics.ready(false)
        var metadata = counts.metadata
        // From the first assignment to the last message accounted for.
        metadata["elapsed-ms"] = .stringConvertible(
            session.firstAssigned.map { Int(((lastSettled ?? $0) - $0) / .milliseconds(1)) }
                ?? 0)
        if let held {
            metadata["store-bytes"] = .stringConvertible(held.bytes)
            metadata["store-pages"] = .stringConvertible(held.pages)
        }
        logger.info("stopped", metadata: metadata)
    }
}
