import Logging
import NIOHTTP1
import Ops
import Prometheus
import TestSupport
import Testing

@testable import Gateway

/// An origin refused CORS headers is logged the first time it asks, so a web app on a new host shows up in the log.
@Suite struct RefusedOriginsTests {
    @Test func eachRefusedOriginIsLoggedOnceAndAllowedOnesNever() {
        let logged = LoggedLines()
        var settings = GatewaySettings(
            kafka: .init(bootstrapServers: "127.0.0.1:1"), latestLayoutTopic: "latest", changesTopic: "changes")
        settings.corsOrigins = ["https://shop.example"]
        let registry = PrometheusCollectorRegistry()
        let endpoints = GatewayEndpoints(
            settings: settings, book: PageBook(settings: settings, sink: RecordingSink()), status: GatewayStatus(),
            metrics: GatewayMetrics(
                factory: MetricCatalog.factory(on: registry),
                exposition: MetricsExposition(registry: registry, build: [])),
            logger: Logger(label: "test") { _ in RecordingLogHandler(lines: logged) })
        func ask(from origin: String) -> [(String, String)] {
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/v1/layouts/k")
            head.headers.add(name: "Origin", value: origin)
            return endpoints.corsHeaders(head)
        }
        #expect(!ask(from: "https://shop.example").isEmpty)
        for _ in 0..<3 { #expect(ask(from: "https://new.example").isEmpty) }
        #expect(ask(from: "https://other.example").isEmpty)
        let refused = logged.all.filter { $0.contains("CORS: origin refused") }
        #expect(refused.count == 2, "\(logged.all)")
        #expect(refused.first?.contains("origin=https://new.example") == true, "\(refused)")

        let few = RefusedOrigins(logger: Logger(label: "test") { _ in RecordingLogHandler(lines: logged) }, limit: 2)
        for n in 0..<10 { few.refused("https://\(n).example", allowed: []) }
        #expect(logged.all.filter { $0.contains("more origins refused") }.count == 1)
    }
}
