public import ContentTree
public import LayoutRecord

/// A successful compile: the record's serialised bytes with their outline, its diagnostics (and the record as values,
/// on request).
public struct CompiledLayout: Sendable {
    /// The record's bytes and where its members, sections and rows sit in them (noted while writing).
    public let outline: RecordOutline
    /// The record as compact JSON (one line, no newline).
    public var bytes: [UInt8] { outline.bytes }
    /// The record's diagnostics.
    public let diagnostics: [Diagnostic]
    let tree: ContentTree
    let source: RecordSource?
    let compiler: LayoutCompiler

    /// The record as values, laid out again from the parsed response (the compile writes the bytes without it).
    public var record: LayoutRecord { compiler.layout(tree, source: source) }

    /// The `@type` of the content item at each of `paths` (diagnostic paths: tree paths, with `#group=` for row
    /// groups), or nil for paths where no item sits; the items are indexed once for all the paths.
    public func contentTypes(atPaths paths: [String]) -> [String?] {
        guard !paths.isEmpty else { return [] }
        let typeByPath = Dictionary(
            tree.items.map { (Substring($0.path), $0.type) }, uniquingKeysWith: { first, _ in first })
        return paths.map { text in
            var path = Substring(text)
            if let group = path.firstRange(of: SectionBuilder.groupMark) { path = path[..<group.lowerBound] }
            return typeByPath[path]
        }
    }
}
