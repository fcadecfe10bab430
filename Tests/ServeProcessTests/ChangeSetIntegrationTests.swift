import Foundation
import Kafka
import LayoutDiff
import LayoutJSON
import LayoutKit
import Serve
import TestSupport
import Testing

@testable import ProcessTestSupport

/// Step `n` of a page: a results list whose window slides by three products per step, with one price changing.
private func page(_ key: String, step n: Int) -> [UInt8] {
    let records = (0..<8).map { i -> String in
        let id = n * 3 + i
        return
            #"{"@class":"x.Record","attributes":{"product.repositoryId":["\#(key)-\#(id)"],"product.price":["\#(i == 0 ? n : id)"]}}"#
    }
    return Array(
        #"{"@type":"PageSlot","name":"\#(key)","contents":[{"@type":"ResultsList","totalNumRecs":500,"recsPerPage":8,"firstRecNum":\#(1 + n * 8),"lastRecNum":\#(8 + n * 8),"records":[\#(records.joined(separator: ","))]}]}"#
            .utf8)
}

/// A renderer that keeps the latest record per page key by applying change sets, resyncing from full records on a base mismatch.
private struct TestRenderer {
    var current: [String: [UInt8]] = [:]
    var applied = 0
    var repeats = 0
    var resyncs: [String] = []

    /// Applies every change set (in topic order per key) and checks each result against the record published for its offset.
    mutating func follow(_ changeSets: [KafkaMessage], records: [Int64: [UInt8]]) {
        var taken: Set<[UInt8]> = []
        for m in changeSets {
            let key = String(decoding: m.key ?? [], as: UTF8.self)
            // A step published again after a kill (its worker died before the commit) is one already taken.
            if let bytes = m.value, !taken.insert(Array(key.utf8) + [0] + bytes).inserted {
                repeats += 1
                continue
            }
            guard let bytes = m.value else {
                current[key] = nil
                continue
            }
            guard let target = try? JSONReader().read(bytes),
                let offset = target.value(target.value(0, "target")!, "offset").flatMap(target.int)
            else {
                Issue.record("unreadable change set")
                continue
            }
            do {
                let rebuilt = try ChangeSetApplier().apply(bytes, to: current[key])
                #expect(
                    rebuilt == records[Int64(offset)],
                    "change set for \(key)@\(offset) did not rebuild the published record")
                current[key] = rebuilt
                applied += 1
            } catch {
                resyncs.append("\(key)@\(offset): \(error)")
                current[key] = records[Int64(offset)]
            }
        }
    }
}

/// The published records by source offset (offsets are unique here: one input partition per key in these tests):
/// the first publication of each. An input delivered again after a crash is published again carrying from the
/// page's stored layout, which may be past it; change sets lead to the first.
private func recordsByOffset(_ messages: [KafkaMessage]) -> [Int64: [UInt8]] {
    var out: [Int64: [UInt8]] = [:]
    for m in messages {
        guard let v = m.value, let doc = try? JSONReader().read(v), let s = doc.value(0, "source"),
            let o = doc.value(s, "offset").flatMap(doc.int), let p = doc.value(s, "partition").flatMap(doc.int)
        else { continue }
        if out[Int64(p) << 32 | Int64(o)] == nil { out[Int64(p) << 32 | Int64(o)] = v }
    }
    return out
}

@Suite(.serialized) struct ChangeSetIntegrationTests {
    @Test func changeSetsAppliedInOrderRebuildEveryRecord() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 1)
            var messages: [(key: String?, value: [UInt8]?)] = []
            for n in 0..<10 { for key in ["a", "b"] { messages.append((key, page(key, step: n))) } }
            messages.append(("a", nil))  // a tombstone clears page a
            messages.append(("a", page("a", step: 3)))
            try broker.produce(input, messages)
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--stop-after", "22", "--changes-topic", changes, "--latest-layout-topic", state])
            #expect(worker.wait(seconds: 60) == 0, "\(worker.logText)")
            let records = try broker.consume(output, partitions: 1, count: 22).filter { $0.value != nil }
            let sets = try broker.consume(changes, partitions: 1, count: 22)
            #expect(records.count == 21 && sets.count == 22)
            var renderer = TestRenderer()
            renderer.follow(
                sets,
                records: Dictionary(
                    uniqueKeysWithValues: recordsByOffset(records).map { ($0.key & 0xFFFF_FFFF, $0.value) })
            )
            #expect(renderer.applied == 21 && renderer.resyncs.isEmpty, "\(renderer.resyncs)")
            // First change set per key is from empty; the one after the tombstone too.
            let bases = sets.compactMap { m -> Bool? in
                guard let v = m.value, let d = try? JSONReader().read(v) else { return nil }
                return d.kind(d.value(0, "base")!) == .null
            }
            #expect(bases.filter { $0 }.count == 3)
            // Change sets validate against their schema; the paging window is carried (steps continue the window).
            let schema = try SchemaValidator(schema: Fixtures.bytes("schemas/layout-change-set.schema.json"))
            for m in sets { if let v = m.value { #expect(schema.validate(v).isEmpty) } }
            let last = try #require(records.last { $0.key == Array("b".utf8) }?.value)
            #expect(String(decoding: last, as: UTF8.self).contains(#""pagingWindow":{"first":1,"last":80}"#))
            // The latest-layout topic (compacted) ends with each page's last record. Of the messages of a batch that
            // change one page only the last stores it, so it holds fewer than the 22 inputs (all 22 are on the broker
            // before the worker starts, so batches hold several steps of each page).
            let latest = try broker.consume(state, partitions: 1, count: 22, timeout: 5)
            #expect(latest.count >= 2 && latest.count < 22, "\(latest.count) latest layouts")
            for key in ["a", "b"] {
                let stored = latest.last { $0.key == Array(key.utf8) }?.value
                #expect(stored != nil && stored == records.last { $0.key == Array(key.utf8) }?.value, "page \(key)")
            }
            #expect(worker.stoppedCounts["consumed"] == 22 && worker.stoppedCounts["published"] == 22)
        }
    }

    @Test func stateSurvivesAKillARestartAndASecondWorker() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 3)
            let keys = ["p0", "p1", "p2", "p3", "p4", "p5"]
            // Key k lives on partition k % 3, so offsets are per partition and records are found by (partition, offset).
            func produce(step: Int) throws {
                for (k, key) in keys.enumerated() {
                    try broker.produce(input, [(key, page(key, step: step))], partition: Int32(k % 3))
                }
            }
            let group = uniqueName("g")
            let flags = ["--changes-topic", changes, "--latest-layout-topic", state]
            // 1. A worker processes two steps and is killed (SIGKILL: no drain, offsets possibly uncommitted).
            try produce(step: 0)
            try produce(step: 1)
            let first = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags)
            _ = try broker.consume(changes, partitions: 3, count: 12, timeout: 60)
            // Every change set is published after its page's latest layout is stored: all 12 seen, all stored.
            first.signal(SIGKILL)
            _ = first.wait(seconds: 10)
            // 2. A restarted worker rebuilds state from the latest-layout topic before processing step 2.
            try produce(step: 2)
            let port = try TestBroker.freePort()
            let second = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags,
                http: "127.0.0.1:\(port)")
            #expect(second.waitForLog("latest layouts rebuilt", seconds: 60), "\(second.logText)")
            _ = try broker.consume(changes, partitions: 3, count: 18, timeout: 60)
            // 3. A second worker joins; partitions move, and each side rebuilds what it was given.
            let third = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: group, extra: flags)
            #expect(third.waitForLog("latest layouts rebuilt", seconds: 60), "\(third.logText)")
            try produce(step: 3)
            try produce(step: 4)
            let sets = try broker.consume(changes, partitions: 3, count: 30, timeout: 60)
            let (body, code) = try syncGet(URL(string: "http://127.0.0.1:\(port)/metrics")!)
            let metrics = String(decoding: body, as: UTF8.self)
            func metric(_ name: String) -> Double { metricSum(metrics, name) }
            #expect(code == 200)
            #expect(metric("layout_worker_change_sets_total") >= 6, "\(metrics)")
            #expect(metric("layout_worker_state_rebuild_seconds_count") >= 1, "\(metrics)")
            #expect(metric("layout_worker_state_store_layouts") >= 1 && metric("layout_worker_state_store_bytes") > 0)
            second.signal(SIGTERM)
            third.signal(SIGTERM)
            #expect(second.wait(seconds: 20) == 0)
            #expect(third.wait(seconds: 20) == 0)
            let records = recordsByOffset(try broker.consume(output, partitions: 3, count: 30))
            // Change sets are keyed by page, so all of one page's are on one partition, in order: follow them per page.
            var renderer = TestRenderer()
            var keyed: [String: [KafkaMessage]] = [:]
            for m in sets { keyed[String(decoding: m.key ?? [], as: UTF8.self), default: []].append(m) }
            for (key, list) in keyed {
                let inputPartition = Int64(keys.firstIndex(of: key)! % 3)
                renderer.follow(
                    list,
                    records: Dictionary(
                        uniqueKeysWithValues: records.filter { $0.key >> 32 == inputPartition }.map {
                            ($0.key & 0xFFFF_FFFF, $0.value)
                        }))
            }
            // Every step of every page was published at least once (a kill may add duplicates), and every change set linked to
            // the renderer's current record: no base mismatch, including right after each rebuild.
            #expect(sets.count >= 30)
            #expect(
                renderer.applied + renderer.repeats == sets.count && renderer.resyncs.isEmpty, "\(renderer.resyncs)")
            // After the restart no change set for a page that had a layout is from empty.
            let fromEmpty = sets.filter { m in
                m.value.flatMap { try? JSONReader().read($0) }.map { $0.kind($0.value(0, "base")!) == .null } ?? false
            }
            // (Counted once each: a first step published again after the kill is the same change set.)
            let distinct = Set(fromEmpty.map { ($0.key ?? []) + [0] + ($0.value ?? []) })
            #expect(distinct.count == keys.count, "\(distinct.count) change sets from empty; expected one per page")
        }
    }

    @Test func aLatestLayoutTopicWithTooFewPartitionsStopsTheWorkerWithAClearError() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest")
            )
            try broker.createTopics([input, output, dlq, changes], partitions: 3)
            try broker.createTopics([state], partitions: 1)
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--changes-topic", changes, "--latest-layout-topic", state])
            let status = worker.wait(seconds: 60)
            #expect(status != nil && status != 0, "\(worker.logText.suffix(2000))")
            #expect(
                worker.logText.contains("create it compacted with as many partitions as the input"),
                "\(worker.logText.suffix(2000))")
        }
    }

    /// With the page store the record is found unreadable when the page is first used; without one, when the
    /// latest layouts are read back into memory.
    @Test(arguments: [true, false]) func anUnreadableLatestLayoutIsSkippedAndThePageStartsFromEmpty(
        pageStore: Bool
    ) async throws {
        try await offThePool {
            let broker = try TestBroker()
            let (input, output, dlq, changes, state) = (
                uniqueName("in"), uniqueName("out"), uniqueName("dlq"), uniqueName("changes"), uniqueName("latest")
            )
            try broker.createTopics([input, output, dlq, changes, state], partitions: 1)
            // A latest layout that is not a layout record (and one for another input topic, which must be ignored).
            let producer = try KafkaProducer(configuration: broker.configuration)
            try producer.produce(
                topic: state, partition: 0, key: Array("a".utf8), value: Array("{not json".utf8),
                headers: [KafkaHeader("layout-worker-source-topic", text: input)], token: 1)
            try producer.produce(
                topic: state, partition: 0, key: Array("b".utf8), value: Array("[]".utf8),
                headers: [KafkaHeader("layout-worker-source-topic", text: "another-topic")], token: 2)
            #expect(producer.flush(timeoutMs: 10_000).pending == 0)
            try broker.produce(input, [("a", page("a", step: 0)), ("b", page("b", step: 0))])
            let worker = try WorkerProcess(
                broker: broker, input: input, output: output, deadLetter: dlq, group: uniqueName("g"),
                extra: ["--stop-after", "2", "--changes-topic", changes, "--latest-layout-topic", state]
                    + (pageStore ? [] : ["--page-store", "off"]))
            #expect(worker.wait(seconds: 60) == 0, "\(worker.logText.suffix(2000))")
            #expect(
                worker.logEntries.filter { $0["message"] as? String == "unreadable latest layout skipped" }.count == 1)
            if !pageStore { #expect(worker.lastEntry("latest layouts rebuilt")?["unreadable"] as? Int == 1) }
            let sets = try broker.consume(changes, partitions: 1, count: 2)
            #expect(sets.count == 2)
            for m in sets {
                let doc = try JSONReader().read(m.value ?? [])
                #expect(doc.kind(doc.value(0, "base")!) == .null)
            }
        }
    }
}
