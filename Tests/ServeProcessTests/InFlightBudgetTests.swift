import Foundation
import TestSupport
import Testing

@testable import ProcessTestSupport

/// `--max-in-flight-bytes` bounds what the worker holds, inputs and outputs: a batch is fetched with room left for
/// the outputs it will become, so a backlog never takes the in-flight bytes to twice the budget (the first batch
/// used to fill the budget with inputs alone, then add as many bytes of records).
@Suite struct InFlightBudgetTests {
    @Test func aBacklogStaysWithinTheInFlightByteBudget() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("in"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([input, output, dlq], partitions: 1)
            let page = Fixtures.bytes("samples/search-page.json")
            let count = 400
            try broker.produce(input, (0..<count).map { ("page-\($0 % 40)", page) })
            let budget = 2 << 20
            let port = try TestBroker.freePort()
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--max-in-flight-bytes", String(budget), "--stop-after", String(count)],
                http: "127.0.0.1:\(port)")
            var most = 0.0, samples = 0
            let done = waitUntil(seconds: 120, every: 0.002) {
                if let held = try? scrapedMetric(port: port, "layout_worker_in_flight_bytes") {
                    most = max(most, held)
                    samples += 1
                }
                return !worker.process.isRunning
            }
            #expect(done, "the worker did not account for \(count) messages within 120 s")
            #expect(worker.wait(seconds: 30) == 0, "\(worker.logText.suffix(2000))")
            #expect(samples > 10, "only \(samples) scrapes of /metrics")
            // The learnt output size is an estimate: a batch may pass the budget by what it underestimates (a few
            // percent) and by the one message a fetch always takes.
            let allowed = Double(budget) * 1.15 + Double(page.count) * 2.5
            #expect(most <= allowed, "in-flight bytes reached \(Int(most)), budget \(budget) (allowed \(Int(allowed)))")
            print("in-flight budget: \(budget) bytes; most held \(Int(most)) (\(samples) scrapes)")
        }
    }
}
