import Foundation
import TestSupport
import Testing

@testable import ProcessTestSupport

/// A misspelt `--input` is named by readiness, not taken for a slow group join; once the topic exists the worker
/// joins and readiness passes without the warning.
@Suite struct MissingInputTests {
    @Test func readinessNamesAnInputTopicThatDoesNotExist() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq) = (uniqueName("misspelt"), uniqueName("out"), uniqueName("dlq"))
            try broker.createTopics([output, dlq], partitions: 1)
            let port = try TestBroker.freePort()
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                // A missing subscribed topic is looked for again at each metadata refresh (5 minutes by default).
                extra: ["--consumer-property", "topic.metadata.refresh.interval.ms=1000"],
                http: "127.0.0.1:\(port)")
            var readiness = ""
            let readyz = {
                guard let (data, code) = try? syncGet(URL(string: "http://127.0.0.1:\(port)/readyz")!) else {
                    return false
                }
                readiness = "\(code) \(String(decoding: data, as: UTF8.self))"
                return true
            }
            let named = waitUntil(seconds: 30, every: 0.2) {
                readyz() && readiness.contains("input topic \(input) does not exist (yet): create it, or check --input")
            }
            #expect(
                named, "readiness never named the missing topic; last: \(readiness)\n\(worker.logText.suffix(1500))")
            #expect(readiness.hasPrefix("503"), "\(readiness)")
            try broker.createTopics([input], partitions: 1)
            let ready = waitUntil(seconds: 60, every: 0.2) { readyz() && readiness.hasPrefix("200") }
            #expect(ready, "not ready within 60 s of the topic's creation; last: \(readiness)")
            #expect(!readiness.contains("does not exist"), "\(readiness)")
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 30) == 0)
        }
    }
}
