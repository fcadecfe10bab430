/// Where the page book hands an event for a page's streams (`StreamHub`: the event loops that hold them).
public protocol StreamSink: Sendable {
    /// Called in the order the page's events happen (under the page book's lock).
    func publish(_ key: String, _ event: EventBytes)
}
