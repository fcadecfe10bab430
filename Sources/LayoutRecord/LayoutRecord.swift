public import ContentTree
public import LayoutJSON
import LayoutKit

/// The compiled layout of one response: what renderers draw, with the diagnostics found on the way.
public struct LayoutRecord: Sendable {
    /// The record format version.
    public static let formatVersion = Wire.formatVersion

    public var source: RecordSource?
    public var page: PageFacts
    public var sections: [LayoutSection]
    public var diagnostics: [Diagnostic]
    /// The response the record's models point into.
    public let document: JSONDocument

    public init(
        source: RecordSource?, page: PageFacts, sections: [LayoutSection], diagnostics: [Diagnostic],
        document: JSONDocument
    ) {
        self.source = source
        self.page = page
        self.sections = sections
        self.diagnostics = diagnostics
        self.document = document
    }

    /// The index of the (first) section made from the content item at `path`.
    public func sectionIndex(forPath path: String) -> Int? {
        sections.first { $0.head.path == path }?.index
    }
}
