public import Kafka
public import LayoutCompiler
public import LayoutDiff
import LayoutJSON

/// Per input message: the page key, attributes carried from the previous layout, and the change set against it.
public struct ChangeStage: Sendable {
    /// What one record becomes with changes on.
    public struct Step: Sendable {
        /// The record to publish (with carried attributes).
        public var record: [UInt8]
        public var pageKey: String
        public var changeSet: ChangeSet
    }

    public let settings: ChangeSettings
    let compiler: LayoutCompiler
    let differ = LayoutDiffer()
    /// The previous layout per page.
    public var store: LayoutStore

    public init(settings: ChangeSettings, compiler: LayoutCompiler) {
        self.settings = settings
        self.compiler = compiler
        self.store = LayoutStore(maxBytes: settings.storeMaxBytes)
    }

    /// The change set for `record`, compiled from `message`; nil when the message has no page key.
    public mutating func step(_ message: KafkaMessage, record: [UInt8]) throws(LayoutDiffError) -> Step? {
        var outline = try RecordOutline(bytes: record)
        guard let page = pageKey(message, outline) else { return nil }
        let key = LayoutStore.Key(topic: message.topic, partition: message.partition, page: page)
        let previous = store.layout(for: key)
        var bytes = record
        if let previous, let carried = compiler.carryAttributes(into: outline, from: previous) {
            bytes = carried
            outline = try RecordOutline(bytes: carried)
        }
        let changeSet = differ.diff(from: previous, to: outline, key: page)
        store.store(outline, for: key)
        return Step(record: bytes, pageKey: page, changeSet: changeSet)
    }

    /// Forgets the page a tombstone names; returns its key, or nil when pages are keyed by response content.
    public mutating func clear(_ message: KafkaMessage) -> String? {
        guard settings.pageKey == .messageKey, let k = message.key else { return nil }
        let page = String(decoding: k, as: UTF8.self)
        store.remove(LayoutStore.Key(topic: message.topic, partition: message.partition, page: page))
        return page
    }

    /// The page key: the message key, or the page's content path and canonical navigation state.
    func pageKey(_ message: KafkaMessage, _ record: RecordOutline) -> String? {
        switch settings.pageKey {
        case .messageKey:
            return message.key.map { String(decoding: $0, as: UTF8.self) }
        case .response:
            let doc = record.document
            guard let page = doc.value(doc.root, Self.pageKey) else { return nil }
            let path = doc.value(page, Self.contentPath).flatMap(doc.string)
            let state = doc.value(page, Self.canonical).flatMap { doc.value($0, Self.target) }.flatMap(doc.string)
            guard path != nil || state != nil else { return nil }
            return (path ?? "") + "|" + (state ?? "")
        }
    }

    static let pageKey: JSONKey = "page"
    static let contentPath: JSONKey = "contentPath"
    static let canonical: JSONKey = "canonical"
    static let target: JSONKey = "target"
}
