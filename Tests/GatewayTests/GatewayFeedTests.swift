import Foundation
import Kafka
import KafkaTesting
import Logging
import NIOCore
import NIOHTTP1
import Ops
import Prometheus
import Synchronization
import TestSupport
import Testing

@testable import Gateway

/// The gateway's topic feed against librdkafka's mock cluster: what it does when the cluster fails.
@Suite(.serialized) struct GatewayFeedTests {
    /// A feed on its own thread, with what it logged and how it ended.
    final class RunningFeed: Sendable {
        let book: PageBook
        let status = GatewayStatus()
        let metrics: GatewayMetrics
        let logged = LoggedLines()
        /// Nil while it runs, then "stopped" or the error it threw.
        private let outcome = Mutex<String?>(nil)

        init(settings: GatewaySettings) {
            book = PageBook(settings: settings, sink: RecordingSink())
            let registry = PrometheusCollectorRegistry()
            metrics = GatewayMetrics(
                factory: MetricCatalog.factory(on: registry),
                exposition: MetricsExposition(registry: registry, build: []))
            let feed = GatewayFeed(
                settings: settings, book: book, status: status, metrics: metrics,
                logger: Logger(label: "test") { [logged] _ in RecordingLogHandler(lines: logged) })
            Thread { [self] in
                let status = self.status
                do throws(KafkaError) {
                    try feed.run { status.stopRequested }
                    finish("stopped")
                } catch {
                    finish("\(error)")
                }
            }.start()
        }

        private func finish(_ text: String) { outcome.withLock { $0 = text } }
        var ended: String? { outcome.withLock { $0 } }

        /// Asks it to stop; how it ended (nil if it did not within 30 s).
        func stop() -> String? {
            status.stop.request()
            let deadline = ContinuousClock.now + .seconds(30)
            while ended == nil && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
            return ended
        }
    }

    /// ListOffsets requests fail (a broker that does not answer in time) until the feed has given up once: it
    /// waits the error out, says why on `/readyz` meanwhile, and then reads the topics with its page store,
    /// instead of stopping the gateway.
    @Test func aRetriableClusterErrorAtStartIsWaitedOut() throws {
        let mock = try KafkaMockCluster(brokers: 1)
        try mock.createTopic("latest", partitions: 1)
        try mock.createTopic("changes", partitions: 1)
        let configuration = KafkaConfiguration(bootstrapServers: mock.bootstrapServers)
        let producer = try KafkaProducer(configuration: configuration)
        let record = Array(#"{"version":2,"page":"k"}"#.utf8)
        try producer.produce(topic: "latest", key: Array("k".utf8), value: record, token: 0)
        #expect(producer.flush(timeoutMs: 10_000).pending == 0)

        mock.failNext(.listOffsets, with: Array(repeating: 7, count: 1_000))  // REQUEST_TIMED_OUT
        var settings = GatewaySettings(kafka: configuration, latestLayoutTopic: "latest", changesTopic: "changes")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        settings.pageStoreDirectory = directory.path
        let feed = RunningFeed(settings: settings)

        var sawWhy = false
        var deadline = ContinuousClock.now + .seconds(30)
        while !feed.logged.all.contains(where: { $0.hasPrefix("kafka: reading the topics again") })
            && feed.ended == nil && ContinuousClock.now < deadline
        {
            sawWhy = sawWhy || feed.status.notReady?.contains("REQUEST_TIMED_OUT") == true
            Thread.sleep(forTimeInterval: 0.02)
        }
        sawWhy = sawWhy || feed.status.notReady?.contains("REQUEST_TIMED_OUT") == true
        mock.clearErrors(.listOffsets)
        deadline = ContinuousClock.now + .seconds(30)
        while feed.status.notReady != nil && feed.ended == nil && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let logged = feed.logged.all
        #expect(feed.status.notReady == nil, "\(logged)")
        #expect(sawWhy, "\(logged)")
        guard case .page(let held, _) = feed.book.read("k") else {
            Issue.record("page k not held: \(feed.book.read("k"))")
            return
        }
        #expect(held == record)
        #expect(feed.book.disk != nil, "the page store is open again")
        #expect(feed.stop() == "stopped", "the feed stops when asked, without an error")
    }

    /// Started before its topics exist, the feed waits for them, saying so on `/readyz`, and reads them once they
    /// are there; asked to stop while it waits, it stops within a second.
    @Test func topicsThatDoNotExistYetAreWaitedFor() throws {
        let mock = try KafkaMockCluster(brokers: 1)
        let configuration = KafkaConfiguration(bootstrapServers: mock.bootstrapServers)
        let settings = GatewaySettings(kafka: configuration, latestLayoutTopic: "latest", changesTopic: "changes")
        let feed = RunningFeed(settings: settings)
        var deadline = ContinuousClock.now + .seconds(20)
        while feed.status.notReady?.contains("does not exist (yet)") != true && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let said = feed.status.notReady ?? ""
        #expect(
            said.hasPrefix("waiting for the topics, for ")
                && said.hasSuffix(" s (topic latest does not exist (yet))"), "\(said)")
        // Apps are told to come back, not why (librdkafka's words are the operator's, on /readyz).
        let endpoints = GatewayEndpoints(
            settings: settings, book: feed.book, status: feed.status, metrics: feed.metrics)
        guard
            case .response(let answer) = endpoints.answer(
                .init(version: .http1_1, method: .GET, uri: "/v1/layouts/k"), on: .api)
        else { Issue.record("a stream was opened before the gateway was ready"); return }
        let body = answer.body.map { String(buffer: $0) } ?? ""
        #expect(
            answer.status == .serviceUnavailable && body.contains("not-ready") && !body.contains("exist"), "\(body)")
        try mock.createTopic("latest", partitions: 1)
        try mock.createTopic("changes", partitions: 1)
        deadline = ContinuousClock.now + .seconds(20)
        while feed.status.notReady != nil && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(feed.status.notReady == nil, "\(feed.logged.all)")
        #expect(feed.stop() == "stopped")

        let waiting = RunningFeed(
            settings: GatewaySettings(kafka: configuration, latestLayoutTopic: "never", changesTopic: "changes"))
        deadline = ContinuousClock.now + .seconds(20)
        while waiting.status.notReady?.contains("does not exist (yet)") != true && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let asked = ContinuousClock.now
        #expect(waiting.stop() == "stopped")
        #expect(ContinuousClock.now - asked < .seconds(1))
    }
}
