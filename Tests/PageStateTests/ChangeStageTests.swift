import Kafka
import LayoutCompiler
import LayoutDiff
import LayoutKit
import LayoutRecord
import PageState
import PageStore
import Synchronization
import TestSupport
import Testing

private let compiler = Samples.compiler

private func layout(_ name: String, rows: Int) throws -> RecordOutline {
    let records = (0..<rows).map { #"{"@class":"x.Record","attributes":{"product.repositoryId":["\#(name)-\#($0)"]}}"# }
        .joined(separator: ",")
    let response = Array(#"{"@type":"ResultsList","name":"\#(name)","records":[\#(records)]}"#.utf8)
    return try compiler.compile(response).get().outline
}

@Suite struct LayoutStoreTests {
    @Test func evictsTheLeastRecentlyUsedBeyondTheBudget() throws {
        let a = try layout("a", rows: 20), b = try layout("b", rows: 20), c = try layout("c", rows: 20)
        let key = { (page: String) in PageKey(page, in: .partition(topic: "in", partition: 0)) }
        // Room for two of these layouts, not three.
        var store = LayoutStore(maxBytes: a.footprint * 2 + a.footprint / 2 + 200)
        store.store(a, for: key("a"))
        store.store(b, for: key("b"))
        #expect(store.count == 2 && store.evictions == 0)
        _ = store.layout(for: key("a"))  // a is now the most recently used
        store.store(c, for: key("c"))
        #expect(store.count == 2 && store.evictions == 1)
        #expect(store.layout(for: key("b")) == nil)
        #expect(store.layout(for: key("a"))?.hash == a.hash && store.layout(for: key("c"))?.hash == c.hash)
        #expect(store.bytes <= store.maxBytes)
        // Replacing a key does not double-count it; removing frees it.
        store.store(c, for: key("c"))
        #expect(store.count == 2)
        store.remove(key("c"))
        #expect(store.count == 1 && store.layout(for: key("c")) == nil)
        // A layout larger than the whole budget is not kept (counted as an eviction).
        var tiny = LayoutStore(maxBytes: 100)
        tiny.store(a, for: key("a"))
        #expect(tiny.count == 0 && tiny.evictions == 1 && tiny.bytes == 0)
    }

    @Test func dropsARevokedPartition() throws {
        let a = try layout("a", rows: 2)
        var store = LayoutStore(maxBytes: 1 << 30)
        for p in Int32(0)..<3 {
            for page in ["x", "y"] { store.store(a, for: PageKey(page, in: .partition(topic: "in", partition: p))) }
        }
        store.store(a, for: PageKey("x", in: .partition(topic: "other", partition: 1)))
        store.remove(.partition(topic: "in", partition: 1))
        #expect(store.count == 5)
        #expect(store.layout(for: PageKey("x", in: .partition(topic: "in", partition: 1))) == nil)
        #expect(store.layout(for: PageKey("x", in: .partition(topic: "other", partition: 1))) != nil)
    }
}

extension ChangeStage.Outcome {
    var step: ChangeStage.Step? { if case .changed(let s) = self { s } else { nil } }
    var cleared: String? { if case .cleared(let p, _) = self { p } else { nil } }
    var unchanged: ChangeStage.Unchanged? { if case .unchanged(let u) = self { u } else { nil } }
    var redelivered: Int64? { if case .redelivered(_, let position, _, _) = self { position } else { nil } }
    var republished: [CarriedStep] { if case .redelivered(_, _, _, let steps) = self { steps } else { [] } }
}

/// Input offsets for one test: each message is the next one on its partition, unless told.
private final class Offsets: Sendable {
    private let next = Mutex<Int64>(0)
    func take() -> Int64 {
        next.withLock { n in
            defer { n += 1 }; return n
        }
    }
}

@Suite struct ChangeStageTests {
    private let offsets = Offsets()

    func message(key: String?, value: [UInt8]?, partition: Int32 = 0, offset: Int64? = nil) -> KafkaMessage {
        KafkaMessage(
            topic: "in", partition: partition, offset: offset ?? offsets.take(), key: key.map { Array($0.utf8) },
            value: value)
    }

    /// Inputs delivered again (after a crash, from the rebuilt store's positions) leave their page where it is:
    /// no change set goes back in time, a tombstone's position holds too, and newer inputs go on from the newest.
    @Test func redeliveredInputsNeverMoveAPageBack() throws {
        var stage = ChangeStage(settings: ChangeSettings(changesTopic: "c", latestLayoutTopic: "s"), compiler: compiler)
        var pages = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let v = (0..<4).map { try! layout("v\($0)", rows: $0 + 2) }
        let hash = { (b: RecordOutline) in ContentHash(of: b.bytes) }
        let first = stage.outcomes(
            [
                (message(key: "p", value: [], offset: 100), v[0]), (message(key: "p", value: [], offset: 101), v[1]),
            ], on: &pages)
        #expect(first[1].step?.changeSet.target.hash == hash(v[1]))
        // 100 and 101 again, then 102: the page stays at 101 and 102 follows from it.
        let again = stage.outcomes(
            [
                (message(key: "p", value: [], offset: 100), v[0]), (message(key: "p", value: [], offset: 101), v[1]),
                (message(key: "p", value: [], offset: 102), v[2]),
            ], on: &pages)
        #expect(again[0].redelivered == 101 && again[1].redelivered == 101)
        #expect(again[2].step?.changeSet.base?.hash == hash(v[1]) && again[2].step?.changeSet.target.hash == hash(v[2]))
        // A tombstone at 103 clears the page; a re-delivered 102 cannot bring it back.
        #expect(stage.outcomes([(message(key: "p", value: nil, offset: 103), nil)], on: &pages)[0].cleared == "p")
        #expect(stage.outcomes([(message(key: "p", value: [], offset: 102), v[2])], on: &pages)[0].redelivered == 103)
        #expect(pages.inMemory(PageKey("p", in: .partition(topic: "in", partition: 0)))?.position == 103)
        #expect(pages.inMemory(PageKey("p", in: .partition(topic: "in", partition: 0)))?.layout == nil)
        // A new input after it starts the page afresh.
        let fresh = try #require(
            stage.outcomes([(message(key: "p", value: [], offset: 104), v[3])], on: &pages)[0].step)
        #expect(fresh.changeSet.base == nil && fresh.changeSet.target.hash == hash(v[3]))
        // A store rebuilt from the latest-layout topic knows the positions: the same answer after a restart.
        var rebuilt = ChangeStage(
            settings: ChangeSettings(changesTopic: "c", latestLayoutTopic: "s"), compiler: compiler)
        var rebuiltPages = WorkerPages(maxBytes: rebuilt.settings.storeMaxBytes)
        rebuiltPages.loaded(
            LayoutStore.Page(layout: try RecordOutline(bytes: v[3].bytes), position: 104),
            for: PageKey("p", in: .partition(topic: "in", partition: 0)))
        #expect(
            rebuilt.outcomes([(message(key: "p", value: [], offset: 101), v[1])], on: &rebuiltPages)[0].redelivered
                == 104)
    }

    /// Each input a page carries a step of, delivered again, publishes that step's change set again (a worker may
    /// have died after the page's latest layout was acknowledged, before the change set was); the steps travel with
    /// the page, to a worker that reads the page back, and go once their inputs are committed.
    @Test func eachInputACarriedStepCameFromDeliveredAgainPublishesThatStepAgain() throws {
        var stage = ChangeStage(settings: ChangeSettings(changesTopic: "c", latestLayoutTopic: "s"), compiler: compiler)
        var pages = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let v = (0..<3).map { try! layout("v\($0)", rows: $0 + 2) }
        let key = PageKey("p", in: .partition(topic: "in", partition: 0))
        let first = stage.outcomes(
            [
                (message(key: "p", value: [], offset: 100), v[0]), (message(key: "p", value: [], offset: 101), v[1]),
            ], on: &pages)
        let steps = [100, 101].enumerated().map { i, o in
            CarriedStep(group: "", offset: Int64(o), changeSet: first[i].step?.changeSet.bytes)
        }
        // Each step carries what the page took so far: the second (the one storing the latest layout) carries both.
        #expect(first[0].step?.carried == [steps[0]] && first[1].step?.carried == steps)
        // Nothing committed: each input again publishes its own step again (the page stays at 101).
        let again = stage.outcomes(
            [
                (message(key: "p", value: [], offset: 100), v[0]), (message(key: "p", value: [], offset: 101), v[1]),
            ], on: &pages)
        #expect(again[0].redelivered == 101 && again[0].republished == [steps[0]])
        #expect(again[1].redelivered == 101 && again[1].republished == [steps[1]])
        // A worker reading the page back (with its steps) does the same, batch by batch: 100 in one batch, then the
        // group commits it, then 101 in the next (the commit passed 100 only once its step was published again; a
        // worker that published every step only at 101, filtered by the commit, left 100's step without one).
        var rebuilt = ChangeStage(
            settings: ChangeSettings(changesTopic: "c", latestLayoutTopic: "s"), compiler: compiler)
        var rebuiltPages = WorkerPages(maxBytes: rebuilt.settings.storeMaxBytes)
        rebuiltPages.loaded(
            LayoutStore.Page(layout: try RecordOutline(bytes: v[1].bytes), position: 101, steps: steps), for: key)
        let before = rebuilt.outcomes([(message(key: "p", value: [], offset: 100), v[0])], on: &rebuiltPages)
        #expect(before[0].redelivered == 101 && before[0].republished == [steps[0]])
        let committed = [Partition("in", 0): Int64(101)]
        let taken = rebuilt.outcomes(
            [(message(key: "p", value: [], offset: 101), v[1])], on: &rebuiltPages, committed: committed)
        #expect(taken[0].republished == [steps[1]])
        // A worker of another group (a new one reading the input again) publishes none of them: they were not its.
        var settings = ChangeSettings(changesTopic: "c", latestLayoutTopic: "s")
        settings.group = "another"
        var other = ChangeStage(settings: settings, compiler: compiler)
        var otherPages = WorkerPages(maxBytes: settings.storeMaxBytes)
        otherPages.loaded(
            LayoutStore.Page(layout: try RecordOutline(bytes: v[1].bytes), position: 101, steps: steps), for: key)
        let elsewhere = other.outcomes([(message(key: "p", value: [], offset: 101), v[1])], on: &otherPages)
        #expect(elsewhere[0].redelivered == 101 && elsewhere[0].republished.isEmpty)
        // Once 102 is committed, the next step carries only itself.
        let next = rebuilt.outcomes(
            [(message(key: "p", value: [], offset: 102), v[2])], on: &rebuiltPages,
            committed: [Partition("in", 0): 102])
        #expect(next[0].step?.carried.map(\.offset) == [102])
        #expect(rebuiltPages.inMemory(key)?.steps.map(\.offset) == [102])
    }

    /// A re-delivered input's record is published again carrying from the page's stored layout, so a renderer
    /// reading records never sees the page's carried state (here the infinite-scroll window) go back.
    @Test func aRedeliveredRecordCarriesFromTheStoredLayout() throws {
        func results(_ first: Int, _ last: Int) throws -> RecordOutline {
            let records = (first...last).map {
                #"{"@class":"x.Record","attributes":{"product.repositoryId":["p\#($0)"]}}"#
            }
            let response = Array(
                #"{"@type":"ResultsList","totalNumRecs":100,"recsPerPage":12,"firstRecNum":\#(first),"lastRecNum":\#(last),"records":[\#(records.joined(separator: ","))]}"#
                    .utf8)
            return try compiler.compile(response).get().outline
        }
        var stage = ChangeStage(settings: ChangeSettings(changesTopic: "c", latestLayoutTopic: "s"), compiler: compiler)
        var pages = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let (page1, page2) = (try results(1, 12), try results(13, 24))
        let out = stage.outcomes(
            [
                (message(key: "p", value: [], offset: 10), page1), (message(key: "p", value: [], offset: 11), page2),
            ], on: &pages)
        let window = #""pagingWindow":{"first":1,"last":24}"#
        #expect(String(decoding: try #require(out[1].step).record, as: UTF8.self).contains(window))
        let again = stage.outcomes([(message(key: "p", value: [], offset: 10), page1)], on: &pages)
        guard case .redelivered(_, 11, let record?, _) = again[0] else {
            Issue.record("expected a re-delivery at 11 with a record, got \(again[0])")
            return
        }
        #expect(String(decoding: record, as: UTF8.self).contains(window))
    }

    @Test func pageKeyFromTheResponse() throws {
        var settings = ChangeSettings(changesTopic: "c", latestLayoutTopic: "s")
        settings.pageKey = .response
        var stage = ChangeStage(settings: settings, compiler: compiler)
        var pages = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let response = Array(
            #"{"@type":"PageSlot","endeca:contentPath":"/browse","canonicalLink":{"@class":"com.endeca.infront.cartridge.model.NavigationAction","contentPath":"/browse","navigationState":"/_/N-5j2xvv?format=json","siteRootPath":"/pages"},"contents":[{"@type":"ResultsList","records":[]}]}"#
                .utf8)
        let record = try compiler.compile(response).get().outline
        let first = try #require(
            stage.outcomes([(message(key: "ignored", value: response), record)], on: &pages)[0].step)
        #expect(first.pageKey == "/browse|/browse/_/N-5j2xvv?format=json")
        #expect(first.changeSet.base == nil)
        // The same page again, under another message key: same page, and the same layout, so no change set: the
        // page keeps the first record's bytes.
        let second = try #require(
            stage.outcomes([(message(key: "other", value: response), record)], on: &pages)[0].unchanged)
        #expect(second.pageKey == first.pageKey && ContentHash(of: second.latest) == first.changeSet.target.hash)
        // Tombstones cannot name a response-keyed page.
        #expect(stage.outcomes([(message(key: "other", value: nil), nil)], on: &pages)[0].cleared == nil)
    }

    @Test func messageKeyedPagesAreSeparateAndTombstonesClearThem() throws {
        var stage = ChangeStage(settings: ChangeSettings(changesTopic: "c", latestLayoutTopic: "s"), compiler: compiler)
        var pages = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let record = try layout("a", rows: 3)
        func base(_ key: String?, partition: Int32 = 0) -> ContentHash?? {
            stage.outcomes([(message(key: key, value: [], partition: partition), record)], on: &pages)[0].step.map {
                $0.changeSet.base?.hash
            }
        }
        #expect(base("k1") == .some(nil))
        #expect(base("k2") == .some(nil))
        #expect(base("k1") != .some(nil))
        // Same key on another partition is another page.
        #expect(base("k1", partition: 2) == .some(nil))
        #expect(stage.outcomes([(message(key: "k1", value: nil), nil)], on: &pages)[0].cleared == "k1")
        #expect(base("k1") == .some(nil))
        // No key, or an empty one (no gateway URL names it), no page; nor for a tombstone.
        #expect(base(nil) == nil)
        #expect(base("") == nil)
        #expect(stage.outcomes([(message(key: "", value: nil), nil)], on: &pages)[0].cleared == nil)
    }

    @Test func aBatchKeepsEachPageInOrderAcrossTombstones() throws {
        var stage = ChangeStage(settings: ChangeSettings(changesTopic: "c", latestLayoutTopic: "s"), compiler: compiler)
        var pages = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let a1 = try layout("a1", rows: 3), a2 = try layout("a2", rows: 4)
        let a3 = try layout("a3", rows: 2), b1 = try layout("b1", rows: 5)
        let out = stage.outcomes(
            [
                (message(key: "a", value: []), a1), (message(key: "b", value: []), b1),
                (message(key: "a", value: []), a2),
                (message(key: "a", value: nil), nil), (message(key: "a", value: []), a3),
                (message(key: "b", value: []), b1),
            ], on: &pages)
        let hash = { (b: RecordOutline) in ContentHash(of: b.bytes) }
        #expect(out[0].step?.changeSet.base == nil)
        #expect(out[1].step?.changeSet.base == nil)
        #expect(out[2].step?.changeSet.base?.hash == hash(a1) && out[2].step?.changeSet.target.hash == hash(a2))
        #expect(out[3].cleared == "a")
        #expect(out[4].step?.changeSet.base == nil)
        // b1 again: the same layout, no change set; the page keeps b1's bytes.
        #expect(out[5].step == nil && out[5].unchanged.map { ContentHash(of: $0.latest) } == hash(b1))
        // The store ends with each page's last layout.
        #expect(pages.inMemory(PageKey("a", in: .partition(topic: "in", partition: 0)))?.layout?.hash == hash(a3))
        #expect(pages.inMemory(PageKey("b", in: .partition(topic: "in", partition: 0)))?.layout?.hash == hash(b1))
    }
}
