import Delivery
import Foundation
import Kafka
import LayoutKit
import Serve
import TestSupport
import Testing

@testable import ProcessTestSupport

/// `serve` takes a new mapping config on SIGHUP without a restart, refuses a broken one, and names in every record
/// the config that made it; change sets across the change stay valid.
@Suite(.serialized) struct ConfigReloadTests {

    private func response(_ name: String) -> [UInt8] {
        let records = (0..<3).map {
            #"{"@class":"x.Record","attributes":{"product.repositoryId":["\#(name)-\#($0)"]}}"#
        }
        return Array(#"{"@type":"ResultsList","name":"\#(name)","records":[\#(records.joined(separator: ","))]}"#.utf8)
    }

    private func header(_ m: KafkaMessage, _ name: String) -> String? {
        m.header(name).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func sighupTakesAGoodConfigAndRefusesABrokenOne() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 1)
            let original = try String(contentsOfFile: Fixtures.path("config/default.yaml"), encoding: .utf8)
            let renamed = original.replacingOccurrences(
                of: "- renderer: ProductCell\n", with: "- renderer: ProductCardCell\n")
            #expect(renamed != original)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString).yaml")
            try original.write(to: path, atomically: true, encoding: .utf8)
            let port = try TestBroker.freePort()
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--config", path.path, "--changes-topic", changes, "--latest-layout-topic", state],
                http: "127.0.0.1:\(port)")
            func metric(_ name: String) throws -> Double { try scrapedMetric(port: port, name) }

            try broker.produce(input, [("page", response("v1"))])
            let first = try broker.consume(output, partitions: 1, count: 1, timeout: 60)
            let hashA = try #require(first.first.flatMap { header($0, Wire.Header.config) })

            // A good config: taken on SIGHUP, named by the next record, and its change set applies to the last record.
            try renamed.write(to: path, atomically: true, encoding: .utf8)
            worker.signal(SIGHUP)
            #expect(worker.waitForLog("config reloaded", seconds: 30), "\(worker.logText.suffix(2000))")
            try broker.produce(input, [("page", response("v1"))])
            let records = try broker.consume(output, partitions: 1, count: 2, timeout: 60)
            #expect(records.count == 2)
            let hashB = try #require(records.last.flatMap { header($0, Wire.Header.config) })
            #expect(hashA != hashB && hashA.count == 16 && hashB.count == 16)
            let (before, after) = (try #require(records.first?.value), try #require(records.last?.value))
            #expect(String(decoding: after, as: UTF8.self).contains("ProductCardCell"))
            #expect(!String(decoding: before, as: UTF8.self).contains("ProductCardCell"))
            let sets = try broker.consume(changes, partitions: 1, count: 2, timeout: 60)
            #expect(sets.count == 2 && sets.last.flatMap { header($0, Wire.Header.config) } == hashB)
            #expect(try ChangeSetApplier().apply(try #require(sets.last?.value), to: before) == after)

            // A broken config: refused, logged, counted; the worker stays ready and keeps the config in use.
            try "renderers: [".write(to: path, atomically: true, encoding: .utf8)
            worker.signal(SIGHUP)
            #expect(worker.waitForLog("config reload refused", seconds: 30), "\(worker.logText.suffix(2000))")
            try broker.produce(input, [("page", response("v2"))])
            let third = try broker.consume(output, partitions: 1, count: 3, timeout: 60)
            #expect(third.count == 3 && third.last.flatMap { header($0, Wire.Header.config) } == hashB)
            let (ready, code) = try syncGet(URL(string: "http://127.0.0.1:\(port)/readyz")!)
            #expect(code == 200, "\(String(decoding: ready, as: UTF8.self))")
            #expect(try metric("layout_worker_config_reload_failures_total") == 1)
            #expect(try metric("layout_worker_config_reloads_total") == 1)
            let (body, _) = try syncGet(URL(string: "http://127.0.0.1:\(port)/metrics")!)
            #expect(String(decoding: body, as: UTF8.self).contains("layout_worker_config_info{config=\"\(hashB)\"} 1"))
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 30) == 0)
            #expect(worker.nonJSONLines.isEmpty)
        }
    }

    /// With `--config-watch-seconds`, a changed file is taken without a signal (a ConfigMap update), and a file
    /// that stops being readable or breaks is refused like a broken SIGHUP reload.
    @Test func aChangedFileIsTakenWithoutASignal() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            let original = try String(contentsOfFile: Fixtures.path("config/default.yaml"), encoding: .utf8)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString).yaml")
            try original.write(to: path, atomically: true, encoding: .utf8)
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--config", path.path, "--config-watch-seconds", "1"])
            try broker.produce(input, [("page", response("v1"))])
            let hashA = try #require(
                try broker.consume(output, partitions: 1, count: 1, timeout: 60).first.flatMap {
                    header($0, Wire.Header.config)
                })
            try original.replacingOccurrences(of: "- renderer: ProductCell\n", with: "- renderer: ProductCardCell\n")
                .write(to: path, atomically: true, encoding: .utf8)
            #expect(worker.waitForLog("config reloaded", seconds: 30), "\(worker.logText.suffix(2000))")
            #expect(worker.lastEntry("config reloaded")?["trigger"] as? String == "the file changed")
            try broker.produce(input, [("page", response("v1"))])
            let records = try broker.consume(output, partitions: 1, count: 2, timeout: 60)
            let hashB = try #require(records.last.flatMap { header($0, Wire.Header.config) })
            #expect(records.count == 2 && hashB != hashA)
            try "renderers: [".write(to: path, atomically: true, encoding: .utf8)
            #expect(worker.waitForLog("config reload refused", seconds: 30), "\(worker.logText.suffix(2000))")
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 30) == 0, "the watcher must not hold up shutdown")
        }
    }
}
