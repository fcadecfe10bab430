import Foundation
import Kafka
import PageStore
import TestSupport
import Testing

@testable import ProcessTestSupport

/// Version `n` of page `key`: a results list whose products move on by one per version.
private func pageVersion(_ key: String, _ n: Int) -> [UInt8] {
    let records = (0..<6).map { i in
        #"{"@class":"x.Record","attributes":{"product.repositoryId":["\#(key)-\#(n + i)"],"product.price":["\#(n)"]}}"#
    }
    return Array(
        #"{"@type":"PageSlot","name":"\#(key)","contents":[{"@type":"ResultsList","totalNumRecs":90,"recsPerPage":6,"firstRecNum":1,"lastRecNum":6,"records":[\#(records.joined(separator: ","))]}]}"#
            .utf8)
}

/// What is wrong with the change-set topic's chains (`ChangeSetChain`): steps without a change set before them, and
/// steps back in time; a step published again after a kill is a repeat, not a fault.
private func chainFaults(_ changeSets: [KafkaMessage]) -> [String] {
    var chain = ChangeSetChain()
    chain.follow(changeSets)
    return chain.missing.map { "missing before \($0)" } + chain.backwards.map { "back in time: \($0)" }
        + (chain.unreadable > 0 ? ["\(chain.unreadable) unreadable"] : [])
}

/// `serve --changes-topic` with a page store: pages far past the memory budget keep their positions, a restart or a
/// reset group reads only what the store's checkpoints do not cover, and the store ends equal to the topic.
@Suite(.serialized) struct PageStoreIntegrationTests {
    @Test func pagesPastTheMemoryBudgetNeverGoBackInTime() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 2)
            let pages = (0..<60).map { "page-\($0)" }
            func produce(version n: Int) throws { try broker.produce(input, pages.map { ($0, pageVersion($0, n)) }) }
            let store = broker.workDirectory.appendingPathComponent("store-a").path
            // About six pages' worth of memory: nearly every lookup goes to disk.
            let flags = ["--changes-topic", changes, "--latest-layout-topic", state, "--page-cache-bytes", "20000"]
            func run(group: String, dir: String, count: Int) throws -> WorkerProcess {
                let worker = try WorkerProcess(
                    broker: broker, input: input, output: output, deadLetter: dlq, group: group,
                    extra: flags + ["--page-store", dir, "--stop-after", String(count)])
                #expect(worker.wait(seconds: 90) == 0, "\(worker.logText.suffix(3000))")
                return worker
            }
            func messagesRead(_ worker: WorkerProcess) -> Int? {
                worker.lastEntry("latest layouts rebuilt")?["messages-read"] as? Int
            }
            // 1. Versions 0 and 1 with store A.
            try produce(version: 0)
            try produce(version: 1)
            let group = uniqueName("g")
            let first = try run(group: group, dir: store, count: 120)
            #expect(messagesRead(first) == 0)
            let afterFirst = try broker.readToEnd(state, partitions: 2).count
            // 2. Versions 2 and 3 by a worker with another store: the latest-layout topic grows past A's checkpoints.
            try produce(version: 2)
            try produce(version: 3)
            _ = try run(group: group, dir: broker.workDirectory.appendingPathComponent("store-b").path, count: 120)
            let latest = try broker.readToEnd(state, partitions: 2)
            let setsBefore = try broker.readToEnd(changes, partitions: 2)
            // 3. The group's offsets reset (a new group reads from the beginning) with store A: it reads only what the
            //    second worker added, and every one of the 240 inputs is a redelivery: no change set at all.
            let third = try run(group: uniqueName("reset"), dir: store, count: 240)
            #expect(messagesRead(third) == latest.count - afterFirst, "\(third.logText)")
            let sets = try broker.readToEnd(changes, partitions: 2)
            #expect(sets.count == setsBefore.count, "\(sets.count - setsBefore.count) change sets from redeliveries")
            #expect(chainFaults(sets).isEmpty, "\(chainFaults(sets).prefix(10))")
            #expect(third.stoppedCounts["consumed"] == 240 && third.stoppedCounts["published"] == 240)
            // Every page was looked up on disk (the memory holds a handful).
            #expect(third.logText.contains("page store reopened"))
            // 4. Store A holds exactly what the topic holds last for each page.
            try expectStoreEqualsTopic(store, latest, input: input)
            // 5. A deleted store is made anew and read from the beginning of the topic.
            try FileManager.default.removeItem(atPath: store)
            let fourth = try run(group: uniqueName("again"), dir: store, count: 240)
            #expect(fourth.logText.contains("page store created"))
            #expect(messagesRead(fourth) == latest.count)
            #expect(chainFaults(try broker.readToEnd(changes, partitions: 2)).isEmpty)
            try expectStoreEqualsTopic(store, latest, input: input)
        }
    }

    @Test func aKilledWorkersStoreReopensEqualToTheTopic() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 2)
            let pages = (0..<40).map { "page-\($0)" }
            for n in 0..<10 { try broker.produce(input, pages.map { ($0, pageVersion($0, n)) }) }
            let store = broker.workDirectory.appendingPathComponent("store").path
            let group = uniqueName("g")
            let flags = [
                "--changes-topic", changes, "--latest-layout-topic", state, "--page-store", store, "--batch-size", "16",
            ]
            // Killed (SIGKILL) while it writes: somewhere in the middle of the 400 inputs.
            let victim = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags)
            _ = try broker.consume(changes, partitions: 2, count: 150, timeout: 60)
            victim.signal(SIGKILL)
            _ = victim.wait(seconds: 10)
            // The store reopens; the restarted worker catches up from its checkpoints and finishes.
            let restarted = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags)
            #expect(restarted.waitForLog("page store reopened", seconds: 60), "\(restarted.logText)")
            _ = try broker.readToEnd(output, partitions: 2) { $0.count >= 400 }
            let sets = try broker.readToEnd(changes, partitions: 2)
            restarted.signal(SIGTERM)
            #expect(restarted.wait(seconds: 30) == 0, "\(restarted.logText)")
            #expect(chainFaults(sets).isEmpty, "\(chainFaults(sets).prefix(10))")
            try expectStoreEqualsTopic(store, try broker.readToEnd(state, partitions: 2), input: input)
        }
    }

    /// A directory the store cannot live in (here a file), or a disk that fills up while it runs (a 8 MiB tmpfs,
    /// where this machine lets root mount one): the worker goes on from memory, publishes everything, moves no page
    /// back in time, and says so in /readyz's body, a metric and the log.
    @Test(arguments: ["unusable", "full"]) func aStoreThatCannotBeWrittenLeavesTheWorkerWorkingFromMemory(
        _ failure: String
    ) async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 1)
            let place = broker.workDirectory.appendingPathComponent("place").path
            if failure == "unusable" {
                _ = FileManager.default.createFile(atPath: place, contents: Data("not a directory".utf8))
            } else {
                try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true)
                guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", place]) == 0 else {
                    print("skipped: cannot mount a tmpfs here to fill a disk")
                    return
                }
            }
            defer { if failure == "full" { _ = Self.run("/bin/umount", ["-l", place]) } }
            let sample = Fixtures.bytes("samples/search-page.json")
            for v in 0..<8 {
                try broker.produce(
                    input, (0..<80).map { ("page-\($0)", Array(#"{"v":\#(v),"#.utf8) + sample.dropFirst()) })
            }
            let port = try TestBroker.freePort()
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--changes-topic", changes, "--latest-layout-topic", state, "--page-store", place + "/store"],
                http: "127.0.0.1:\(port)")
            let ready = URL(string: "http://127.0.0.1:\(port)/readyz")!
            let warned = waitUntil(seconds: 90) {
                guard let (body, code) = try? syncGet(ready) else { return false }
                return code == 200 && String(decoding: body, as: UTF8.self).contains("working from memory")
            }
            #expect(warned, "\(worker.logText.suffix(2000))")
            let (metrics, _) = try syncGet(URL(string: "http://127.0.0.1:\(port)/metrics")!)
            #expect(String(decoding: metrics, as: UTF8.self).contains("layout_worker_page_store_up 0"))
            _ = try broker.readToEnd(output, partitions: 1) { $0.count >= 640 }
            worker.signal(SIGTERM)
            #expect(worker.wait(seconds: 30) == 0, "\(worker.logText.suffix(2000))")
            #expect(worker.stoppedCounts["consumed"] == 640 && worker.stoppedCounts["published"] == 640)
            #expect(
                worker.logText.contains(failure == "full" ? "page store writes fail" : "cannot open the page store"))
            #expect(chainFaults(try broker.readToEnd(changes, partitions: 1)).isEmpty)
        }
    }

    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Every page of the store equals the last value of its key on the latest-layout topic, and the reverse.
    private func expectStoreEqualsTopic(_ dir: String, _ latest: [KafkaMessage], input: String) throws {
        let (store, _) = try PageStore.open(directory: dir, identity: nil)
        defer { store.close() }
        for partition in Int32(0)..<2 {
            var last: [String: [UInt8]?] = [:]
            for m in latest where m.partition == partition {
                last[String(decoding: m.key ?? [], as: UTF8.self)] = .some(m.value)
            }
            let stored = try store.pages(in: PageStore.Scope.partition(topic: input, partition: partition))
            #expect(stored.count == last.count, "partition \(partition): \(stored.count) stored, \(last.count) keys")
            let differing = stored.filter { last[$0.key] != .some($0.page.record) }.map(\.key)
            #expect(differing.isEmpty, "pages differing from the topic: \(differing)")
        }
    }
}
