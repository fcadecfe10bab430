/// An object in the response whose `@type` is a string: one cartridge, one adaptor section.
public struct ContentItem: Sendable, Equatable {
    /// Index of the item's object node in the document tape.
    public let node: Int
    /// The `@type` value, e.g. `ResultsList`.
    public let type: String
    /// Where the item sits, e.g. `contents[0].MainContent[1]`; `$` for the root.
    public let path: String
    /// Index (in `ContentTree.items`) of the nearest content item above this one.
    public let parent: Int?
    /// How many content items sit directly below this one (`ContentTree.children(of:)` lists them).
    public internal(set) var childCount: Int
    /// Number of content items above this one.
    public let depth: Int
}
