/// An item's place in a collection view: section and item index (UIKit's `IndexPath(item:section:)`).
public struct ItemPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (a: ItemPath, b: ItemPath) -> Bool {
        (a.section, a.item) < (b.section, b.item)
    }

    public var description: String { "[\(section), \(item)]" }
}

/// An item moved from an old place to a new one.
public struct ItemMove: Sendable, Hashable, CustomStringConvertible {
    public var from: ItemPath
    public var to: ItemPath

    public init(from: ItemPath, to: ItemPath) {
        self.from = from
        self.to = to
    }

    public var description: String { "\(from) → \(to)" }
}
