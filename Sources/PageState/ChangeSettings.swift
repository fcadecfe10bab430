/// What `serve --changes-topic` needs: where change sets and latest layouts go, how pages are keyed, the store's budget.
public struct ChangeSettings: Sendable {
    /// Where a layout's page key comes from.
    public enum PageKeySource: String, Sendable, CaseIterable {
        /// The input message key.
        case messageKey = "message-key"
        /// The response: `endeca:contentPath` plus the canonical link's navigation state.
        case response
    }

    /// Change sets, keyed by page key.
    public var changesTopic: String
    /// The compacted "latest layout" topic, keyed by page key, partitioned like the input.
    public var latestLayoutTopic: String
    public var pageKey = PageKeySource.messageKey
    /// The memory cache's budget in bytes (record text plus tape) in front of the page store.
    public var storeMaxBytes = defaultStoreMaxBytes
    /// The page store's directory (every page's position and latest layout on disk, with checkpoints); nil: memory
    /// only, with pages past `storeMaxBytes` forgotten.
    public var pageStoreDirectory: String?
    /// The consumer group: a page's steps are carried for it (`CarriedStep`).
    public var group = ""
    public static let defaultStoreMaxBytes = 256 * 1024 * 1024

    public init(changesTopic: String, latestLayoutTopic: String) {
        self.changesTopic = changesTopic
        self.latestLayoutTopic = latestLayoutTopic
    }
}
