import Delivery
import Kafka
import LayoutCompiler
import LayoutKit
import PageState
import PageStore
import TestSupport
import Testing

@testable import Serve

private let compiler = Samples.compiler
private let pages = ChangeSettings(changesTopic: "changes", latestLayoutTopic: "latest")
private let trace = [KafkaHeader("traceparent", text: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")]

/// What one message becomes on the topics, and in which order its outputs may be produced: the guarantees of
/// docs/design.md's "Ordering guarantees" that `OutputPlan` and `StateWrite` hold, without a broker.
@Suite struct OutputPlanTests {
    static func message(_ key: String, offset: Int64, value: [UInt8]?) -> KafkaMessage {
        KafkaMessage(
            topic: "in", partition: 3, offset: offset, key: Array(key.utf8), value: value,
            headers: [KafkaHeader("app", text: "a")], timestamp: 1_700_000_000_000)
    }

    static func response(_ name: String) -> [UInt8] {
        Array(#"{"@type":"ResultsList","name":"\#(name)","records":[]}"#.utf8)
    }

    /// A batch as the loop makes it: compiled, stepped through a change-set stage, state writes assigned.
    static func batch(_ messages: [KafkaMessage], stage: inout ChangeStage, pages: inout WorkerPages) -> [BatchItem] {
        var items = messages.map { BatchItem($0, .of($0, compiler: compiler, limits: DeliveryLimits())) }
        let inputs = items.compactMap(\.pageInput)
        let outcomes = stage.outcomes(inputs, on: &pages)
        var next = 0
        for i in items.indices where items[i].pageInput != nil {
            items[i].page = outcomes[next]
            next += 1
        }
        var gates = 0
        StateWrite.assign(&items) {
            gates += 1
            return DeliveryEngine.Gate(id: gates)
        }
        return items
    }

    static func parts(_ plan: OutputPlan) -> (DeliveryEngine.Purpose, [DeliveryEngine.Part])? {
        if case .send(let purpose, let parts) = plan.outputs { (purpose, parts) } else { nil }
    }

    static func header(_ part: DeliveryEngine.Part, _ name: String) -> String? {
        part.headers.first { $0.name == name }?.value.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A record with a page: the record, then the page's latest layout on its input partition, then the change
    /// set, produced after both are acknowledged; each with its headers.
    @Test func aRecordStoresItsPageAndItsChangeSetComesAfter() throws {
        var stage = ChangeStage(settings: pages, compiler: compiler)
        var held = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let items = Self.batch([Self.message("p", offset: 7, value: Self.response("a"))], stage: &stage, pages: &held)
        let plan = OutputPlan(items[0], output: "out", pages: pages, config: "cfg", trace: trace)
        let (purpose, parts) = try #require(Self.parts(plan))
        #expect(purpose == .record && plan.changeSet != nil && plan.skipped == nil)
        #expect(parts.map(\.topic) == ["out", "latest", "changes"])
        let (record, latest, changeSet) = (parts[0], parts[1], parts[2])
        #expect(record.key == Array("p".utf8) && latest.key == Array("p".utf8) && changeSet.key == Array("p".utf8))
        #expect(latest.partition == 3 && latest.value == record.value)
        #expect(!record.afterOthers && !latest.afterOthers && changeSet.afterOthers)
        #expect(changeSet.waitsFor == nil && latest.opens == nil)
        #expect(Self.header(record, Wire.Header.contentType) == Wire.recordContentType)
        #expect(Self.header(record, "app") == "a" && Self.header(record, "traceparent") != nil)
        #expect(Self.header(latest, Wire.Header.sourceOffset) == "7" && Self.header(latest, "app") == nil)
        #expect(Self.header(changeSet, Wire.Header.contentType) == Wire.changeSetContentType)
        #expect(Self.header(changeSet, Wire.Header.config) == "cfg" && Self.header(changeSet, "app") == "a")
    }

    /// Two messages of a batch for one page: only the last stores the page's latest layout; the first's change set
    /// waits for that store (a compacted topic keeps one, and no change set runs ahead of the stored page).
    @Test func onlyTheLastOfABatchStoresAPageAndTheOthersWaitForIt() throws {
        var stage = ChangeStage(settings: pages, compiler: compiler)
        var held = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let items = Self.batch(
            [
                Self.message("p", offset: 1, value: Self.response("a")),
                Self.message("q", offset: 2, value: Self.response("x")),
                Self.message("p", offset: 3, value: Self.response("b")),
            ], stage: &stage, pages: &held)
        let gate = DeliveryEngine.Gate(id: 1)
        #expect(items.map(\.state) == [.waitFor(gate), .store(opens: nil), .store(opens: gate)])
        let plans = items.map { OutputPlan($0, output: "out", pages: pages, config: "cfg", trace: []) }
        let first = try #require(Self.parts(plans[0])).1, last = try #require(Self.parts(plans[2])).1
        #expect(first.map(\.topic) == ["out", "changes"] && first[1].waitsFor == gate)
        #expect(last.map(\.topic) == ["out", "latest", "changes"] && last[1].opens == gate && last[2].waitsFor == nil)
    }

    /// An input at or before its page's position is published again, carrying from the stored layout, without a
    /// change set or a latest layout: the page does not go back.
    @Test func aRedeliveredInputIsARecordAlone() throws {
        var stage = ChangeStage(settings: pages, compiler: compiler)
        var held = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        _ = Self.batch([Self.message("p", offset: 5, value: Self.response("a"))], stage: &stage, pages: &held)
        let again = Self.batch([Self.message("p", offset: 4, value: Self.response("z"))], stage: &stage, pages: &held)
        let plan = OutputPlan(again[0], output: "out", pages: pages, config: "cfg", trace: [])
        #expect(try #require(Self.parts(plan)).1.map(\.topic) == ["out"])
        #expect(plan.skipped == .redelivered && plan.changeSet == nil && again[0].state == nil)
    }

    /// The page's latest layout carries its uncommitted steps; the input the page is at, delivered again, publishes
    /// its step's change set again after its record, naming its input, byte for byte as the first time.
    @Test func theInputThePageIsAtDeliveredAgainPublishesItsStepsAgain() throws {
        var stage = ChangeStage(settings: pages, compiler: compiler)
        var held = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let first = Self.batch([Self.message("p", offset: 5, value: Self.response("a"))], stage: &stage, pages: &held)
        let firstParts = try #require(
            Self.parts(OutputPlan(first[0], output: "out", pages: pages, config: "c", trace: []))
        ).1
        #expect(firstParts.map(\.topic) == ["out", "latest", "changes"])
        #expect(
            CarriedStep.read(from: firstParts[1].headers) == [
                CarriedStep(group: "", offset: 5, changeSet: firstParts[2].value)
            ])
        let again = Self.batch([Self.message("p", offset: 5, value: Self.response("a"))], stage: &stage, pages: &held)
        let plan = OutputPlan(again[0], output: "out", pages: pages, config: "c", trace: [])
        let parts = try #require(Self.parts(plan)).1
        #expect(parts.map(\.topic) == ["out", "changes"] && parts[1].afterOthers)
        #expect(parts[1].value == firstParts[2].value && Self.header(parts[1], Wire.Header.sourceOffset) == "5")
        #expect(plan.republished == 1 && plan.skipped == nil && plan.changeSet == nil)
    }

    /// The same response published again: its record is published (naming its input), the page's latest layout is
    /// stored again byte for byte (the same hash, so the same ETag) with the new position, and no change set is made;
    /// the position moved, so an input between the two is a redelivery.
    @Test func theSameResponseAgainRestatesThePageWithoutAChangeSet() throws {
        var stage = ChangeStage(settings: pages, compiler: compiler)
        var held = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let first = Self.batch([Self.message("p", offset: 5, value: Self.response("a"))], stage: &stage, pages: &held)
        let firstParts = try #require(
            Self.parts(OutputPlan(first[0], output: "out", pages: pages, config: "c", trace: [])))
        let again = Self.batch([Self.message("p", offset: 7, value: Self.response("a"))], stage: &stage, pages: &held)
        let plan = OutputPlan(again[0], output: "out", pages: pages, config: "c", trace: [])
        let (purpose, parts) = try #require(Self.parts(plan))
        #expect(purpose == .record && plan.skipped == .unchanged && plan.changeSet == nil)
        #expect(parts.map(\.topic) == ["out", "latest"])
        #expect(parts[1].value == firstParts.1[1].value && parts[1].value != nil)
        #expect(Self.header(parts[1], Wire.Header.sourceOffset) == "7")
        let record = String(decoding: try #require(parts[0].value), as: UTF8.self)
        #expect(record.contains(#""offset":7"#) && parts[0].value != parts[1].value)
        let between = Self.batch([Self.message("p", offset: 6, value: Self.response("b"))], stage: &stage, pages: &held)
        guard case .redelivered(_, 7, _, _)? = between[0].page else {
            Issue.record("offset 6 after 7 is not a redelivery: \(String(describing: between[0].page))")
            return
        }
        // A different response after it diffs from the page as it was stored (the first record's bytes).
        let next = Self.batch([Self.message("p", offset: 8, value: Self.response("b"))], stage: &stage, pages: &held)
        guard case .changed(let step)? = next[0].page else {
            Issue.record("a new response made no change set: \(String(describing: next[0].page))")
            return
        }
        #expect(step.changeSet.base?.hash == ContentHash(of: try #require(firstParts.1[1].value)))
    }

    /// A tombstone clears its page: its own tombstone, the latest layout's (its position in the headers), then
    /// the change set's, after the others.
    @Test func aTombstoneClearsTheLatestLayoutThenTheChangeSets() throws {
        var stage = ChangeStage(settings: pages, compiler: compiler)
        var held = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        _ = Self.batch([Self.message("p", offset: 1, value: Self.response("a"))], stage: &stage, pages: &held)
        let items = Self.batch([Self.message("p", offset: 2, value: nil)], stage: &stage, pages: &held)
        let (purpose, parts) = try #require(
            Self.parts(OutputPlan(items[0], output: "out", pages: pages, config: "cfg", trace: [])))
        #expect(purpose == .tombstone && parts.map(\.topic) == ["out", "latest", "changes"])
        #expect(parts.allSatisfy { $0.value == nil })
        #expect(Self.header(parts[1], Wire.Header.sourceOffset) == "2" && parts[2].afterOthers)
    }

    /// A pass-through run's input (not a record) is published unchanged, without a page even with change sets on.
    @Test func aPassedThroughInputIsPublishedUnchangedWithoutAPage() throws {
        let input = Array(#"{"not":"a record"}"#.utf8)
        let item = BatchItem(Self.message("p", offset: 1, value: input), .record(.raw(input), diagnostics: []))
        #expect(item.pageInput == nil)
        let plan = OutputPlan(item, output: "out", pages: pages, config: "cfg", trace: [])
        let (purpose, parts) = try #require(Self.parts(plan))
        #expect(purpose == .record && parts.map(\.topic) == ["out"] && parts[0].value == input)
    }

    /// Without change sets, and for what has no page (a dead letter), the plan is the shared step's.
    @Test func withoutAPageThePlanIsTheSharedStep() throws {
        let m = Self.message("p", offset: 1, value: Self.response("a"))
        let item = BatchItem(m, .of(m, compiler: compiler, limits: DeliveryLimits()))
        let plan = OutputPlan(item, output: "out", pages: nil, config: "cfg", trace: [])
        #expect(try #require(Self.parts(plan)).1.map(\.topic) == ["out"])
        let broken = Self.message("p", offset: 2, value: Array("{".utf8))
        var stage = ChangeStage(settings: pages, compiler: compiler)
        var held = WorkerPages(maxBytes: stage.settings.storeMaxBytes)
        let items = Self.batch([broken], stage: &stage, pages: &held)
        let letter = OutputPlan(items[0], output: "out", pages: pages, config: "cfg", trace: [])
        guard case .deadLetter(let code, _) = letter.outputs else {
            Issue.record("a response that does not parse is a dead letter")
            return
        }
        #expect(code == "invalid-json")
    }
}
