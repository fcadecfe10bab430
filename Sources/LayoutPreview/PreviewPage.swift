/// One page of a preview: a response file, or one key of a followed topic, with the record it shows and what is wrong.
public struct PreviewPage: Sendable, Equatable {
    /// What the page is called in the tabs: the response's path, or the followed key.
    public var name: String
    /// The record shown (nil until the first compiles or arrives).
    public var record: [UInt8]?
    /// Why the record shown is not the latest (a compile failure, a stale change set), nil when it is.
    public var problem: String?

    public init(name: String, record: [UInt8]? = nil, problem: String? = nil) {
        self.name = name
        self.record = record
        self.problem = problem
    }
}
