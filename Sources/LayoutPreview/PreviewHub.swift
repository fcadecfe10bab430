import LayoutDiff
import LayoutJSON
import LayoutKit
public import LayoutRecord
public import Mapping
public import ServiceLifecycle

/// The pages a preview shows and the connections watching them. Sources hand it records (it diffs them against what
/// the page shows) or change sets (it applies them); every connection gets a snapshot, then each change as a change set.
/// As a service it pings the connections every `pingInterval` and ends them on shutdown.
public actor PreviewHub: Service {
    private var pages: [PreviewPage]
    private var outlines: [RecordOutline?]
    private var problem: String?
    private var subscribers: [Int: AsyncStream<PreviewEvent>.Continuation] = [:]
    private var nextSubscriber = 0
    private let pingInterval: Duration
    /// The probes' view of the hub (its whole-preview problem), readable from any thread.
    public nonisolated let status: PreviewStatus
    /// The resolver of the config the records were compiled with (nil: none here, e.g. a followed topic).
    private var resolver: RendererResolver?

    public init(pageNames: [String], pingInterval: Duration = .seconds(15)) {
        pages = pageNames.map { PreviewPage(name: $0) }
        outlines = Array(repeating: nil, count: pageNames.count)
        self.pingInterval = pingInterval
        status = PreviewStatus(pages: pageNames.count)
    }

    /// What every page shows now.
    public var snapshot: (pages: [PreviewPage], problem: String?) { (pages, problem) }

    /// The events from now on, starting with a snapshot.
    public func subscribe() -> AsyncStream<PreviewEvent> {
        let (stream, continuation) = AsyncStream<PreviewEvent>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let id = nextSubscriber
        nextSubscriber += 1
        continuation.yield(.snapshot(pages: pages, problem: problem))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            Task { await self.unsubscribe(id) }
        }
        subscribers[id] = continuation
        return stream
    }

    private func unsubscribe(_ id: Int) { subscribers[id] = nil }

    /// Shows `record` on page `page`: the connections get the change set from what the page showed (nothing when the
    /// bytes are the same). A record that cannot be read becomes the page's problem.
    public func show(_ record: [UInt8], page: Int) {
        guard pages.indices.contains(page), pages[page].record != record else { return clear(page) }
        do {
            let target = try RecordOutline(bytes: record)
            replace(page, with: target, changeSet: changes(to: target, on: page))
        } catch {
            report("not a layout record: \(error)", page: page)
        }
    }

    /// Shows a record already read (its outline), as `show(_:page:)` does.
    public func show(_ target: RecordOutline, page: Int) {
        guard pages.indices.contains(page), pages[page].record != target.bytes else { return clear(page) }
        replace(page, with: target, changeSet: changes(to: target, on: page))
    }

    /// The change set from what page `page` shows to `target`.
    private func changes(to target: RecordOutline, on page: Int) -> [UInt8] {
        LayoutDiffer().diff(from: outlines[page], to: target, key: pages[page].name).bytes
    }

    /// Page `page` (which exists) shows `target` now, which `changeSet` makes from what it showed; the connections
    /// get the change set, and the page's problem is cleared.
    private func replace(_ page: Int, with target: RecordOutline, changeSet: [UInt8]) {
        pages[page].record = target.bytes
        outlines[page] = target
        broadcast(.change(page: page, changeSet: changeSet))
        clear(page)
    }

    /// Applies a change set to page `page`'s record and passes it on as it is. One that does not apply (another
    /// base, malformed) changes nothing and becomes the page's problem.
    public func apply(_ changeSet: [UInt8], page: Int, origin: String) {
        guard pages.indices.contains(page) else { return }
        let target: RecordOutline
        do {
            target = try RecordOutline(bytes: try ChangeSetApplier().apply(changeSet, to: pages[page].record))
        } catch {
            return report("\(origin): \(error); waiting for a record or a change set from empty", page: page)
        }
        replace(page, with: target, changeSet: changeSet)
    }

    /// The records from now on are compiled with `resolver`'s config (what `explain` answers with).
    public func use(_ resolver: RendererResolver?) { self.resolver = resolver }

    /// Why row `row` of the `section`-th section of page `page` (as the record lists them) got its renderer: what
    /// `layout-worker explain` prints, worked out on the record (its models are the response's bytes), or why not.
    public func explain(page: Int, section: Int, row: Int) -> String {
        guard let resolver else {
            return "no mapping config here (this preview follows a topic): run `layout-worker explain` on the response"
        }
        guard pages.indices.contains(page), let record = pages[page].record, let doc = try? JSONReader().read(record)
        else { return "page \(page) has no record" }
        guard let sections = doc.value(doc.root, "sections"), let s = doc.element(sections, section),
            let rows = doc.value(s, "rows"), let r = doc.element(rows, row), let model = doc.value(r, "model")
        else { return "page \(page) has no row \(row) in its section \(section)" }
        let text = { (key: JSONKey) in doc.value(s, key).flatMap(doc.string) ?? "" }
        let context = ConditionContext(
            document: doc, model: model, row: row, section: doc.value(s, "index").flatMap(doc.int) ?? section,
            sectionType: text("type"))
        let explanation = RowExplanation(context, adaptor: text("adaptor"), resolver: resolver)
        return explanation.lines(origin: resolver.config.origin).joined(separator: "\n")
    }

    /// Sets (or, with nil, clears) the problem of one page, or of the whole preview when `page` is nil.
    public func report(_ message: String?, page: Int?) {
        if let page {
            guard pages.indices.contains(page), pages[page].problem != message else { return }
            pages[page].problem = message
        } else {
            guard problem != message else { return }
            problem = message
            status.setProblem(message)
        }
        broadcast(.problem(page: page, message: message))
    }

    private func clear(_ page: Int) { report(nil, page: page) }

    private func broadcast(_ event: PreviewEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    /// Pings every connection until shutdown, then ends them (so the server's graceful shutdown is not held open).
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: self.pingInterval)
                await self.broadcast(.ping)
            }
        }
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }
}
