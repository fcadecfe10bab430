import Adaptors
import ContentTree
import LayoutJSON
import LayoutRecord
import Mapping

/// Makes the sections of one content tree in order, one per content item (or per row group of one), handing each
/// to a callback as it is made; collects the record's diagnostics on the way.
struct SectionBuilder {
    let tree: ContentTree
    /// The compiler's config, resolvers and plans (one reference: copying them would count dozens).
    let setup: CompileSetup
    let placeholders: PlaceholderPolicy
    let adaptorOptions: AdaptorOptions
    /// Every item's section id (see `SectionIdentifier`).
    let ids: SectionIDList
    private(set) var diagnostics: [Diagnostic]
    private var sectionCount = 0
    /// One row buffer for every section: each section's rows are handed over, then the buffer is emptied.
    private var rows: [LayoutRow] = []
    /// Kept across sections: consecutive sections often hold rows of the same class (refinement menus).
    private var chainCache = TypeChainCache()
    private var eventChain = EventChain()
    /// With `omitContainers`, which items were left out (a section's parent is its nearest ancestor kept).
    private var omitted: [Bool]

    static let nullJSON = ArraySlice("null".utf8)
    /// What joins a grouped section's id (and the path its diagnostics name) to its group's label.
    static let groupMark = "#group="
    /// Sections with at most this many rows find repeated row ids by comparing them pairwise (cheaper than hashing).
    static let idsComparedPairwise = 12

    init(tree: ContentTree, setup: CompileSetup) {
        let options = setup.config.options
        self.tree = tree
        self.setup = setup
        self.placeholders = PlaceholderPolicy(options: options)
        self.adaptorOptions = AdaptorOptions(emptyMenusShowNoResults: options.emptyMenusShowNoResults)
        let (ids, idDiagnostics) = SectionIdentifier(config: setup.config).ids(of: tree)
        self.ids = ids
        self.diagnostics = tree.diagnostics
        if !idDiagnostics.isEmpty { diagnostics.append(contentsOf: idDiagnostics) }
        self.omitted = [Bool](repeating: false, count: options.omitContainers ? tree.items.count : 0)
    }

    /// Adapts item `index` with `plan` and hands its section (or its groups' sections) to `section`.
    mutating func add(item index: Int, plan: SectionPlan, _ section: (SectionHead, [LayoutRow]) -> Void) {
        let item = tree.items[index]
        let doc = tree.document
        var adapted = plan.adaptor.adapt(item, in: tree, options: adaptorOptions)
        // (Appending nothing to a shared or empty array still allocates a new buffer.)
        if !adapted.diagnostics.isEmpty { diagnostics.append(contentsOf: adapted.diagnostics) }
        if let d = placeholders.apply(to: &adapted, item: item, in: doc) { diagnostics.append(d) }
        for (name, path) in plan.attributes where !adapted.attributes.contains(where: { $0.name == name }) {
            if let node = path.resolve(in: doc, from: item.node) {
                adapted.attributes.append(Attribute(name, .json(node: node)))
            }
        }
        if adapted.isContainer && setup.config.options.omitContainers {
            omitted[index] = true
            return
        }
        var parent = item.parent
        while let p = parent, !omitted.isEmpty, omitted[p] { parent = tree.items[p].parent }
        let mappings = plan.mappings
        let itemContext = ConditionContext(
            document: doc, model: item.node, row: 0, section: sectionCount, sectionType: item.type)
        var supplementary: [SupplementaryView] = []
        for (kind, resolution, model) in setup.resolver.supplementaryViews(item: itemContext, mappings: mappings) {
            report(resolution, what: "\(kind) view", path: item.path, fallsBackToDefault: false)
            // An ambiguous view has no renderer, and so no model either.
            let modelJSON = resolution.renderer == nil ? Self.nullJSON : doc.raw(model)
            supplementary.append(SupplementaryView(kind: kind, renderer: resolution.renderer, modelJSON: modelJSON))
        }
        var placeholder: LayoutPlaceholder?
        if let kind = adapted.placeholder {
            let resolution = setup.resolver.resolvePlaceholder(kind, item: itemContext, mappings: mappings)
            report(resolution, what: "\(kind.rawValue) placeholder", path: item.path, fallsBackToDefault: false)
            placeholder = LayoutPlaceholder(
                kind: kind, renderer: resolution.renderer, message: adapted.placeholderMessage)
        }
        var head = SectionHead(
            idUTF8: ids[index], path: item.path, index: 0, type: item.type, adaptor: mappings.adaptor,
            visible: false, parentUTF8: parent.map { ids[$0] }, attributes: adapted.attributes,
            supplementary: supplementary, placeholder: placeholder)
        guard let grouper = plan.grouper, !adapted.rows.isEmpty else {
            emit(&head, adapted, rowIndexes: nil, plan: plan, where: item.path, section)
            return
        }
        var mismatched = 0
        let groups = grouper.group(adapted.rows, in: doc, mismatched: &mismatched)
        if mismatched > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning, .groupTypeMismatch, path: item.path,
                    "\(mismatched) row\(mismatched == 1 ? "'s" : "s'") \(grouper.pathText) \(mismatched == 1 ? "is" : "are") not \(grouper.valueType.article) (groupType \(grouper.valueType.rawValue)); \(mismatched == 1 ? "it is" : "they are") in the null group"
                ))
        }
        let headerMapping = supplementary.first { $0.kind == SupplementaryKind.header }
        // What belongs to the whole list (attributes, footer and other views) goes once: attributes on the first
        // group, views but the header on the last.
        let listViews = supplementary.filter { $0.kind != SupplementaryKind.header }
        for (n, group) in groups.enumerated() {
            var groupHead = head
            groupHead.idUTF8 = head.idUTF8 + Self.groupMark.utf8 + group.label.utf8
            groupHead.group = (grouper.pathText, group.valueJSON)
            groupHead.placeholder = nil
            if n > 0 { groupHead.attributes = [] }
            groupHead.supplementary = n == groups.count - 1 ? listViews : []
            if let headerMapping {
                groupHead.supplementary.insert(
                    SupplementaryView(
                        kind: SupplementaryKind.header, renderer: headerMapping.renderer,
                        modelJSON: ArraySlice(group.valueJSON)), at: 0)
            }
            emit(
                &groupHead, adapted, rowIndexes: group.rows, plan: plan,
                where: item.path + Self.groupMark + group.label,
                section)
        }
    }

    /// Resolves the rows (all of `adapted`'s, or those at `rowIndexes`) and hands the finished section over;
    /// `path` is where diagnostics about its rows point. `head` gets its index and visibility (in place: a copy
    /// of a head counts a dozen references).
    private mutating func emit(
        _ head: inout SectionHead, _ adapted: AdaptedSection, rowIndexes: [Int]?, plan: SectionPlan, where path: String,
        _ section: (SectionHead, [LayoutRow]) -> Void
    ) {
        let doc = tree.document
        head.index = sectionCount
        rows.removeAll(keepingCapacity: true)
        let count = rowIndexes?.count ?? adapted.rows.count
        rows.reserveCapacity(count)
        // Repeated ids: small sections compare with the rows so far, larger ones hash.
        let hashIDs = count > Self.idsComparedPairwise
        var seen = Set<String>(minimumCapacity: hashIDs ? count : 0)
        var duplicates: [String] = []
        // One context for the section, moved from row to row (making one per row counts references).
        var context = ConditionContext(document: doc, model: 0, row: 0, section: head.index, sectionType: head.type)
        // Each row's fallbacks are worked out in `fallbacks`; rows whose list is the same as the previous one's
        // share that one's storage (`shared`), so a section's rows allocate one list, not one each.
        var fallbacks: [String] = []
        var shared: [String] = []
        for n in 0..<count {
            // The row's fields are read in place: copying the whole row counts references.
            let r = rowIndexes?[n] ?? n
            context.model = adapted.rows[r].node
            context.row = n
            let resolution = setup.resolver.resolveRow(
                context, mappings: plan.mappings, cache: &chainCache, fallbacks: &fallbacks)
            if fallbacks != shared {
                shared = []  // storage of its own: `fallbacks` stays unshared, reused without copying
                shared.append(contentsOf: fallbacks)
            }
            report(
                resolution, what: "row \(n) (id \(adapted.rows[r].id))", path: path, fallsBackToDefault: true)
            if count > 1
                && (hashIDs
                    ? !seen.insert(adapted.rows[r].id).inserted : rows.contains { $0.id == adapted.rows[r].id })
            {
                duplicates.append(adapted.rows[r].id)
            }
            rows.append(
                LayoutRow(
                    id: adapted.rows[r].id, renderer: resolution.renderer, fallbacks: shared, model: context.model,
                    action: adapted.rows[r].action,
                    events: setup.events.isEmpty
                        ? [] : rowEvents(context, adaptor: plan.mappings.adaptor, row: adapted.rows[r].id, path: path)))
        }
        if !duplicates.isEmpty {
            let shown = duplicates.prefix(10).joined(separator: ", ") + (duplicates.count > 10 ? ", …" : "")
            diagnostics.append(
                Diagnostic(.warning, .duplicateRowId, path: path, "row ids repeat within the section: \(shown)"))
        }
        head.visible =
            !adapted.isContainer
            && (!rows.isEmpty || head.placeholder != nil
                || head.supplementary.contains {
                    $0.kind == SupplementaryKind.header || $0.kind == SupplementaryKind.footer
                })
        section(head, rows)
        sectionCount += 1
    }

    /// The row's events in the config's order; an ambiguous one is left out and reported.
    private mutating func rowEvents(_ context: ConditionContext, adaptor: String, row id: String, path: String)
        -> [RowEvent]
    {
        let events = setup.events
        var out: [RowEvent] = []
        var ambiguous: [(event: String, type: String, mappings: [Int])] = []
        events.resolve(context, adaptor: adaptor, chain: &eventChain) { e, resolution in
            switch resolution {
            case .chosen(let n):
                let m = events.mappings[n]
                out.append(
                    RowEvent(
                        name: m.event, handler: m.handler, passesAction: m.passesAction,
                        fields: m.fields.map { ($0.name, $0.path.resolve(in: context.document, from: context.model)) }))
            case .ambiguous(let type, let mappings):
                ambiguous.append((events.events[e], type, mappings))
            }
        }
        for (event, type, mappings) in ambiguous {
            let lines = mappings.map { n in events.mappings[n].location.map { "line \($0.line)" } ?? "mapping \(n)" }
            diagnostics.append(
                Diagnostic(
                    .error, .ambiguous, path: path,
                    "row \(context.row) (id \(id)) \(event) event matches \(mappings.count) mappings for \(type) (\(lines.joined(separator: ", "))); the row has no \(event)"
                ))
        }
        return out
    }

    /// Reports an unresolved row, view or placeholder. Rows fall back to `defaultRenderer` (so they are unmapped only
    /// without one); supplementary views and placeholders never do.
    private mutating func report(
        _ resolution: Resolution, what: @autoclosure () -> String, path: String, fallsBackToDefault: Bool
    ) {
        switch resolution {
        case .resolved, .defaulted: break
        case .unmapped(let tried):
            let why = fallsBackToDefault ? "no defaultRenderer" : "defaultRenderer applies to rows only"
            diagnostics.append(
                Diagnostic(
                    .error, .unmapped, path: path,
                    "\(what()) has no renderer (tried \(tried.joined(separator: ", ")); \(why))"))
        case .ambiguous(let type, let renderers):
            diagnostics.append(
                Diagnostic(
                    .error, .ambiguous, path: path,
                    "\(what()) matches \(renderers.count) mappings for \(type): \(renderers.joined(separator: ", "))"))
        }
    }
}
