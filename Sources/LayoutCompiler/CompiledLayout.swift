public import ContentTree
public import LayoutRecord

/// A successful compile: the record's serialised bytes and its diagnostics (and the record as values, on request).
public struct CompiledLayout: Sendable {
    /// The record as compact JSON (one line, no newline).
    public let bytes: [UInt8]
    /// The record's diagnostics.
    public let diagnostics: [Diagnostic]
    let tree: ContentTree
    let source: RecordSource?
    let compiler: LayoutCompiler

    /// The record as values, laid out again from the parsed response (the compile writes the bytes without it).
    public var record: LayoutRecord { compiler.layout(tree, source: source) }

    /// The `@type` of the content item whose section has id `sectionID` (a row group's section included), if any.
    public func contentType(ofSection sectionID: String) -> String? {
        var path = Substring(sectionID)
        if let group = path.firstRange(of: "#group=") { path = path[..<group.lowerBound] }
        return tree.items.first { $0.path == path }?.type
    }
}
