public import Adaptors
public import ContentTree
import LayoutJSON
public import LayoutRecord
public import Mapping

/// Compiles assembler responses into layout records: parse, flatten, adapt, resolve, write. Pure and reusable.
public struct LayoutCompiler: Sendable {
    /// Everything worked out from the config, shared by every copy of the compiler and every compiled layout.
    let setup: CompileSetup

    public var config: MappingConfig { setup.config }
    public var registry: AdaptorRegistry { setup.registry }
    /// The renderer resolver rows are resolved with (for `explain`: the same one, the same answers).
    public var resolver: RendererResolver { setup.resolver }

    /// A compiler for `config`; `registry` overrides the adaptors the config describes (the Swift extension point).
    public init(config: MappingConfig, registry: AdaptorRegistry? = nil, maxInputBytes: Int = Int(UInt32.max) - 1) {
        setup = CompileSetup(config: config, registry: registry ?? config.registry(), maxInputBytes: maxInputBytes)
    }

    static let nameKey: JSONKey = "name"
    static let contentPathKey: JSONKey = "endeca:contentPath"
    static let siteRootPathKey: JSONKey = "endeca:siteRootPath"
    static let productionURLKey: JSONKey = "atg:currentSiteProductionURL"
    static let canonicalKey: JSONKey = "canonicalLink"

    /// Compiles one response.
    public func compile(_ bytes: [UInt8], source: RecordSource? = nil) -> Result<CompiledLayout, CompileFailure> {
        let document: JSONDocument
        do {
            document = try setup.reader.read(bytes)
        } catch {
            if case .inputTooLarge = error.reason {
                return .failure(CompileFailure(code: .tooLarge, message: error.message))
            }
            return .failure(
                CompileFailure(
                    code: .invalidJSON, message: error.message, offset: error.offset, syntax: error.reason))
        }
        guard document.kind(document.root) == .object else {
            return .failure(
                CompileFailure(
                    code: .notAssemblerResponse,
                    message: "the root is \(article(document.kind(document.root))), not an object"))
        }
        if let written = WrittenLayout.recognize(document) {
            return .failure(CompileFailure(code: .layoutRecord, message: written))
        }
        let tree = ContentTree(document: document)
        guard !tree.items.isEmpty else {
            var message = "no content items (objects with a string @type) anywhere in the response"
            if let d = tree.diagnostics.first { message += "; first problem: \(d.message) at \(d.path)" }
            return .failure(CompileFailure(code: .notAssemblerResponse, message: message))
        }
        // The record is written as its sections are made; `CompiledLayout.record` lays it out again as values on request.
        var diagnostics: [Diagnostic] = []
        let outline = setup.writer.write(source: source, page: pageFacts(tree), document: document) { section in
            diagnostics = sections(of: tree, section)
            return diagnostics
        }
        if setup.config.policy == .strict, diagnostics.contains(where: { $0.severity == .error }) {
            let errors = diagnostics.filter { $0.severity == .error }
            return .failure(
                CompileFailure(
                    code: .strictPolicy,
                    message:
                        "\(errors.count) error diagnostic\(errors.count == 1 ? "" : "s") under the strict policy; first: \(errors[0])",
                    diagnostics: errors))
        }
        return .success(
            CompiledLayout(outline: outline, diagnostics: diagnostics, tree: tree, source: source, compiler: self))
    }

    private func article(_ kind: JSONKind) -> String {
        switch kind {
        case .array: return "an array"
        case .object: return "an object"
        case .string: return "a string"
        case .number: return "a number"
        case .null: return "null"
        case .true, .false: return "a boolean"
        }
    }

    /// Builds the record for a content tree (no policy applied).
    public func layout(_ tree: ContentTree, source: RecordSource? = nil) -> LayoutRecord {
        var sections: [LayoutSection] = []
        sections.reserveCapacity(tree.items.count)
        let diagnostics = self.sections(of: tree) { head, rows in sections.append(LayoutSection(head: head, rows: rows))
        }
        return LayoutRecord(
            source: source, page: pageFacts(tree), sections: sections, diagnostics: diagnostics, document: tree.document
        )
    }

    /// Makes the record's sections in order, handing each to `section` with its rows; returns the record's diagnostics.
    private func sections(of tree: ContentTree, _ section: (SectionHead, [LayoutRow]) -> Void) -> [Diagnostic] {
        var builder = SectionBuilder(tree: tree, setup: setup)
        // Plans for types the config does not name, made on first use (few per page, so found by comparison).
        var otherPlans: [(type: String, plan: SectionPlan)] = []
        for index in tree.items.indices {
            let type = tree.items[index].type
            let plan: SectionPlan
            if let known = setup.plans.plan(for: type) ?? otherPlans.first(where: { $0.type == type })?.plan {
                plan = known
            } else {
                plan = setup.plan(for: type)
                otherPlans.append((type, plan))
            }
            builder.add(item: index, plan: plan, section)
        }
        return builder.diagnostics
    }

    private func pageFacts(_ tree: ContentTree) -> PageFacts {
        var page = PageFacts()
        let doc = tree.document
        let root = doc.root
        if tree.rootIsContentItem { page.type = tree.items[0].type }
        page.name = doc.value(root, Self.nameKey).flatMap(doc.string)
        page.contentPath = doc.value(root, Self.contentPathKey).flatMap(doc.string)
        page.siteRootPath = doc.value(root, Self.siteRootPathKey).flatMap(doc.string)
        page.siteProductionURL = doc.value(root, Self.productionURLKey).flatMap(doc.string)
        page.canonical = doc.value(root, Self.canonicalKey).flatMap { RowAction.read($0, in: doc, as: .navigate) }
        return page
    }
}
