public import Adaptors
public import ContentTree
import LayoutJSON
public import LayoutRecord
public import Mapping

/// Compiles assembler responses into layout records: parse, flatten, adapt, resolve, write. Pure and reusable.
public struct LayoutCompiler: Sendable {
    public let config: MappingConfig
    public let registry: AdaptorRegistry
    private let resolver: RendererResolver
    private let reader: JSONReader
    /// Plans for every content type the registry or the config names; other types get theirs per compile.
    private let plans: PlanTable
    private let writer = LayoutRecordWriter()

    /// A compiler for `config`; `registry` overrides the adaptors the config describes (the Swift extension point).
    public init(config: MappingConfig, registry: AdaptorRegistry? = nil, maxInputBytes: Int = Int(UInt32.max) - 1) {
        self.config = config
        self.registry = registry ?? config.registry()
        self.resolver = RendererResolver(config: config)
        self.reader = JSONReader(maxDepth: config.options.maxDepth, maxBytes: maxInputBytes)
        var plans: [String: SectionPlan] = [:]
        let named =
            self.registry.registeredTypes + config.renderers.flatMap(\.types) + config.supplementary.flatMap(\.types)
            + config.placeholders.flatMap(\.types)
        for type in named where plans[type] == nil {
            plans[type] = Self.plan(for: type, config: config, registry: self.registry, resolver: resolver)
        }
        self.plans = PlanTable(plans)
    }

    private static func plan(
        for type: String, config: MappingConfig, registry: AdaptorRegistry, resolver: RendererResolver
    ) -> SectionPlan {
        let adaptor = registry.adaptor(for: type)
        return SectionPlan(
            adaptor: adaptor, grouper: config.adaptors[type]?.grouper,
            mappings: resolver.sectionMappings(sectionType: type, adaptor: adaptor.name))
    }

    /// Sections with at most this many rows find repeated row ids by comparing them pairwise (cheaper than hashing).
    static let idsComparedPairwise = 12

    static let errorKey: JSONKey = "@error"
    static let nullJSON = ArraySlice("null".utf8)
    static let contentPathsKey: JSONKey = "contentPaths"
    static let nameKey: JSONKey = "name"
    static let contentPathKey: JSONKey = "endeca:contentPath"
    static let siteRootPathKey: JSONKey = "endeca:siteRootPath"
    static let productionURLKey: JSONKey = "atg:currentSiteProductionURL"
    static let canonicalKey: JSONKey = "canonicalLink"

    /// Compiles one response.
    public func compile(_ bytes: [UInt8], source: RecordSource? = nil) -> Result<CompiledLayout, CompileFailure> {
        let document: JSONDocument
        do {
            document = try reader.read(bytes)
        } catch {
            if case .inputTooLarge = error.reason {
                return .failure(CompileFailure(code: .tooLarge, message: error.message))
            }
            return .failure(CompileFailure(code: .invalidJSON, message: error.message, offset: error.offset))
        }
        guard document.kind(document.root) == .object else {
            return .failure(
                CompileFailure(
                    code: .notAssemblerResponse,
                    message: "the root is \(article(document.kind(document.root))), not an object"))
        }
        let tree = ContentTree(document: document)
        guard !tree.items.isEmpty else {
            var message = "no content items (objects with a string @type) anywhere in the response"
            if let d = tree.diagnostics.first { message += "; first problem: \(d.message) at \(d.path)" }
            return .failure(CompileFailure(code: .notAssemblerResponse, message: message))
        }
        // The record is written as its sections are made; `CompiledLayout.record` lays it out again as values on request.
        var diagnostics: [Diagnostic] = []
        let bytes = writer.write(source: source, page: pageFacts(tree), document: document) { section in
            diagnostics = sections(of: tree, section)
            return diagnostics
        }
        if config.policy == .strict, diagnostics.contains(where: { $0.severity == .error }) {
            let errors = diagnostics.filter { $0.severity == .error }
            return .failure(
                CompileFailure(
                    code: .strictPolicy,
                    message:
                        "\(errors.count) error diagnostic\(errors.count == 1 ? "" : "s") under the strict policy; first: \(errors[0])",
                    diagnostics: errors))
        }
        return .success(
            CompiledLayout(bytes: bytes, diagnostics: diagnostics, tree: tree, source: source, compiler: self))
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
        let doc = tree.document
        let adaptorOptions = AdaptorOptions(emptyMenusShowNoResults: config.options.emptyMenusShowNoResults)
        var diagnostics = tree.diagnostics
        var sectionCount = 0
        // One row buffer for every section: each section's rows are handed over, then the buffer is emptied.
        var rows: [LayoutRow] = []
        // Kept across sections: consecutive sections often hold rows of the same class (refinement menus).
        var chainCache = TypeChainCache()
        // Plans for types the config does not name, made on first use (few per page, so found by comparison).
        var otherPlans: [(type: String, plan: SectionPlan)] = []

        // With `omitContainers`, which items were left out (a section's parent is its nearest ancestor kept).
        var omitted = [Bool](repeating: false, count: config.options.omitContainers ? tree.items.count : 0)
        for (index, item) in tree.items.enumerated() {
            let plan: SectionPlan
            if let known = plans.plan(for: item.type) ?? otherPlans.first(where: { $0.type == item.type })?.plan {
                plan = known
            } else {
                plan = Self.plan(for: item.type, config: config, registry: registry, resolver: resolver)
                otherPlans.append((item.type, plan))
            }
            let adaptor = plan.adaptor
            let mappings = plan.mappings
            var adapted = adaptor.adapt(item, in: tree, options: adaptorOptions)
            // (Appending nothing to a shared or empty array still allocates a new buffer.)
            if !adapted.diagnostics.isEmpty { diagnostics.append(contentsOf: adapted.diagnostics) }
            // The reader flags objects with an `@error` key (or an escaped key, which might spell it).
            if doc.nodes[item.node].flags & (JSONNode.Flags.errorKey | JSONNode.Flags.escapedKey) != 0,
                let errorNode = doc.value(item.node, Self.errorKey)
            {
                let text = doc.string(errorNode) ?? String(decoding: doc.raw(errorNode), as: UTF8.self)
                adapted.placeholder = .error
                adapted.placeholderMessage = text
                diagnostics.append(
                    Diagnostic(.warning, "cartridge-error", path: item.path, "\(item.type) reported an error: \(text)"))
            }
            if adapted.rows.isEmpty, adapted.placeholder == nil, config.options.emptySlotsShowLoading,
                item.childCount == 0, let paths = doc.value(item.node, Self.contentPathsKey),
                doc.kind(paths) == .array, doc.nodes[paths].count > 0
            {
                adapted.placeholder = .loading
                adapted.isContainer = false
            }
            if adapted.isContainer && config.options.omitContainers {
                omitted[index] = true
                continue
            }

            var parent = item.parent
            while let p = parent, !omitted.isEmpty, omitted[p] { parent = tree.items[p].parent }
            let parentID = parent.map { tree.items[$0].path }
            let itemContext = ConditionContext(
                document: doc, model: item.node, row: 0, section: sectionCount, sectionType: item.type)
            var supplementary: [SupplementaryView] = []
            for (kind, resolution, model) in resolver.supplementaryViews(item: itemContext, mappings: mappings) {
                report(resolution, what: "\(kind) view", path: item.path, fallsBackToDefault: false, into: &diagnostics)
                // An ambiguous view has no renderer, and so no model either.
                let modelJSON = resolution.renderer == nil ? Self.nullJSON : doc.raw(model)
                supplementary.append(SupplementaryView(kind: kind, renderer: resolution.renderer, modelJSON: modelJSON))
            }
            var placeholder: LayoutPlaceholder?
            if let kind = adapted.placeholder {
                let resolution = resolver.resolvePlaceholder(kind, item: itemContext, mappings: mappings)
                report(
                    resolution, what: "\(kind.rawValue) placeholder", path: item.path, fallsBackToDefault: false,
                    into: &diagnostics)
                placeholder = LayoutPlaceholder(
                    kind: kind, renderer: resolution.renderer, message: adapted.placeholderMessage)
            }

            let groups: [RowGroup]?
            if let grouper = plan.grouper, !adapted.rows.isEmpty {
                groups = grouper.group(adapted.rows, in: doc)
            } else {
                groups = nil
            }

            func makeSection(
                id: String, rowIndexes: [Int]?, group: (by: String, valueJSON: [UInt8])?, header: SupplementaryView?
            ) {
                let index = sectionCount
                rows.removeAll(keepingCapacity: true)
                let count = rowIndexes?.count ?? adapted.rows.count
                rows.reserveCapacity(count)
                // Repeated ids: small sections compare with the rows so far, larger ones hash.
                let hashIDs = count > Self.idsComparedPairwise
                var seen = Set<String>(minimumCapacity: hashIDs ? count : 0)
                var duplicates: [String] = []
                // One context for the section, moved from row to row (making one per row counts references).
                var context = ConditionContext(document: doc, model: 0, row: 0, section: index, sectionType: item.type)
                for n in 0..<count {
                    // The row's fields are read in place: copying the whole row counts references.
                    let r = rowIndexes?[n] ?? n
                    context.model = adapted.rows[r].node
                    context.row = n
                    let resolution = resolver.resolveRow(context, mappings: mappings, cache: &chainCache)
                    report(
                        resolution, what: "row \(n) (id \(adapted.rows[r].id))", path: id, fallsBackToDefault: true,
                        into: &diagnostics)
                    if count > 1
                        && (hashIDs
                            ? !seen.insert(adapted.rows[r].id).inserted : rows.contains { $0.id == adapted.rows[r].id })
                    {
                        duplicates.append(adapted.rows[r].id)
                    }
                    rows.append(
                        LayoutRow(
                            id: adapted.rows[r].id, renderer: resolution.renderer, model: context.model,
                            action: adapted.rows[r].action))
                }
                if !duplicates.isEmpty {
                    diagnostics.append(
                        Diagnostic(
                            .warning, "duplicate-row-id", path: id,
                            "row ids repeat within the section: \(duplicates.prefix(10).joined(separator: ", "))\(duplicates.count > 10 ? ", …" : "")"
                        ))
                }
                var views = supplementary
                if let header {
                    views.removeAll { $0.kind == SupplementaryKind.header }
                    views.insert(header, at: 0)
                }
                let visible =
                    !adapted.isContainer
                    && (!rows.isEmpty || placeholder != nil
                        || views.contains { $0.kind == SupplementaryKind.header || $0.kind == SupplementaryKind.footer })
                section(
                    SectionHead(
                        id: id, index: index, type: item.type, adaptor: mappings.adaptor, visible: visible,
                        parent: parentID,
                        group: group, attributes: adapted.attributes, supplementary: views,
                        placeholder: rowIndexes == nil || rowIndexes?.isEmpty == true ? placeholder : nil), rows)
                sectionCount += 1
            }

            if let groups, let grouper = plan.grouper {
                let headerMapping = supplementary.first { $0.kind == SupplementaryKind.header }
                for group in groups {
                    let header = headerMapping.map {
                        SupplementaryView(
                            kind: SupplementaryKind.header, renderer: $0.renderer,
                            modelJSON: ArraySlice(group.valueJSON))
                    }
                    makeSection(
                        id: item.path + "#group=" + group.label, rowIndexes: group.rows,
                        group: (grouper.pathText, group.valueJSON), header: header)
                }
            } else {
                makeSection(id: item.path, rowIndexes: nil, group: nil, header: nil)
            }
        }
        return diagnostics
    }

    /// Reports an unresolved row, view or placeholder. Rows fall back to `defaultRenderer` (so they are unmapped only
    /// without one); supplementary views and placeholders never do.
    private func report(
        _ resolution: Resolution, what: @autoclosure () -> String, path: String, fallsBackToDefault: Bool,
        into diagnostics: inout [Diagnostic]
    ) {
        switch resolution {
        case .resolved, .defaulted: break
        case .unmapped(let tried):
            let why = fallsBackToDefault ? "no defaultRenderer" : "defaultRenderer applies to rows only"
            diagnostics.append(
                Diagnostic(
                    .error, "unmapped", path: path,
                    "\(what()) has no renderer (tried \(tried.joined(separator: ", ")); \(why))"))
        case .ambiguous(let type, let renderers):
            diagnostics.append(
                Diagnostic(
                    .error, "ambiguous", path: path,
                    "\(what()) matches \(renderers.count) mappings for \(type): \(renderers.joined(separator: ", "))"))
        }
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
