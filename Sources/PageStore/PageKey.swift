/// A page as the store and the worker's memory key it: the set of pages it belongs to and its key in that set.
public struct PageKey: Hashable, Sendable {
    public var scope: PageStore.Scope
    public var page: String

    public init(_ page: String, in scope: PageStore.Scope) {
        self.scope = scope
        self.page = page
    }
}
