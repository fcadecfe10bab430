/// Page-wide switches adaptors consult.
public struct AdaptorOptions: Sendable, Equatable {
    /// An empty refinement menu shows a no-results placeholder (otherwise it is just empty).
    public var emptyMenusShowNoResults: Bool

    public init(emptyMenusShowNoResults: Bool = false) {
        self.emptyMenusShowNoResults = emptyMenusShowNoResults
    }
}
