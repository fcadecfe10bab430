public import Adaptors
import LayoutJSON

/// Finds the one renderer for each row, supplementary view and placeholder, by the fallback chain and conditions.
/// Immutable, and shared by reference: a compile reads it per row.
public final class RendererResolver: Sendable {
    public let config: MappingConfig
    private let supplementaryByKind: [String: [String: [Int]]]
    /// Per section type (or adaptor name): the supplementary kinds mapped for it and their candidates, in kind order.
    private let supplementaryByType: [String: [(kind: String, candidates: [Int])]]
    /// The supplementary kinds the config defines, in first-use order.
    public let supplementaryKinds: [String]
    private let placeholdersByKind: [PlaceholderKind: [String: [Int]]]
    private let anyTypePlaceholders: [PlaceholderKind: [Int]]
    /// Each row mapping's condition and renderer, by mapping index (read per row without copying the mapping).
    private let rowConditions: [Condition?]
    private let rowRenderers: [String]
    /// Every type a row mapping names, with its UTF-8 bytes and candidates (looked up by bytes, without allocating).
    let rowTypes: [(type: String, utf8: [UInt8], candidates: [Int])]
    static let classKey: JSONKey = "@class"

    public init(config: MappingConfig) {
        self.config = config
        var rows: [String: [Int]] = [:]
        for (n, m) in config.renderers.enumerated() { for t in Set(m.types) { rows[t, default: []].append(n) } }
        var supplementary: [String: [String: [Int]]] = [:]
        for (n, m) in config.supplementary.enumerated() {
            for t in Set(m.types) { supplementary[m.kind, default: [:]][t, default: []].append(n) }
        }
        var placeholders: [PlaceholderKind: [String: [Int]]] = [:]
        var anyType: [PlaceholderKind: [Int]] = [:]
        for (n, m) in config.placeholders.enumerated() {
            if m.types.isEmpty { anyType[m.kind, default: []].append(n) }
            for t in Set(m.types) { placeholders[m.kind, default: [:]][t, default: []].append(n) }
        }
        supplementaryByKind = supplementary
        var kinds: [String] = []
        for m in config.supplementary where !kinds.contains(m.kind) { kinds.append(m.kind) }
        var byType: [String: [(kind: String, candidates: [Int])]] = [:]
        for kind in kinds {
            for (type, candidates) in supplementary[kind] ?? [:] {
                byType[type, default: []].append((kind, candidates))
            }
        }
        for type in byType.keys {
            byType[type]!.sort { kinds.firstIndex(of: $0.kind)! < kinds.firstIndex(of: $1.kind)! }
        }
        supplementaryByType = byType
        supplementaryKinds = kinds
        placeholdersByKind = placeholders
        anyTypePlaceholders = anyType
        rowConditions = config.renderers.map(\.condition)
        rowRenderers = config.renderers.map(\.renderer)
        rowTypes = rows.keys.sorted().map { ($0, Array($0.utf8), rows[$0]!) }
    }

    /// The renderer for one row.
    public func resolveRow(_ context: ConditionContext, adaptor: String) -> Resolution {
        var cache = TypeChainCache()
        return resolveRow(
            context, mappings: sectionMappings(sectionType: context.sectionType, adaptor: adaptor), cache: &cache)
    }

    /// The renderer for one row of a section with `mappings`, reusing the class levels of the previous row
    /// resolved with `cache` when its `@class` is the same.
    public func resolveRow(_ context: ConditionContext, mappings: SectionMappings, cache: inout TypeChainCache)
        -> Resolution
    {
        var unused: [String] = []
        return resolveRow(context, mappings: mappings, cache: &cache, fallbacks: &unused, wanted: false)
    }

    /// The renderer for one row, and in `fallbacks` what the lower levels of its chain give after the winning one
    /// (each renderer once, the winner's left out), ending with the default renderer: what a renderer that lacks
    /// the winner draws instead (Instant Cocoa's `with<ModelName>:` → `with<ModelClassName>:` → `withObject:`).
    /// Empty for a row that got the default renderer, or none.
    public func resolveRow(
        _ context: ConditionContext, mappings: SectionMappings, cache: inout TypeChainCache,
        fallbacks: inout [String], wanted: Bool = true
    ) -> Resolution {
        let doc = context.document
        let classNode = Self.classNode(of: context)
        if !cache.valid || !Self.sameClass(classNode, cache.classNode, in: doc) {
            cache = classLevels(classNode, in: doc)
        }
        fallbacks.removeAll(keepingCapacity: true)
        var winner: Resolution?
        // The levels in chain order; after the winner, the ones below it give the fallbacks.
        func level(_ entry: Int) {
            guard let resolution = resolve(context, entry: entry) else { return }
            guard let won = winner else {
                winner = resolution
                return
            }
            if case .resolved(let r, _) = resolution, r != won.renderer, !fallbacks.contains(r) { fallbacks.append(r) }
        }
        if cache.short >= 0 { level(cache.short) }
        if cache.full >= 0, winner == nil || wanted { level(cache.full) }
        for entry in mappings.rows where entry != cache.short && entry != cache.full {
            if winner != nil && !wanted { break }
            level(entry)
        }
        if let winner {
            guard case .resolved(let r, _) = winner, wanted else {
                fallbacks.removeAll()
                return winner
            }
            if let d = config.defaultRenderer, d != r, !fallbacks.contains(d) { fallbacks.append(d) }
            return winner
        }
        if let d = config.defaultRenderer { return .defaulted(renderer: d) }
        var tried = classNode >= 0 ? Self.classTypes(doc.decodedStringBytes(classNode)) : []
        for t in [mappings.sectionType, mappings.adaptor] where !tried.contains(t) { tried.append(t) }
        return .unmapped(tried: tried)
    }

    /// The row model's `@class` string node, or -1 when it has none.
    static func classNode(of context: ConditionContext) -> Int {
        let doc = context.document
        return doc.value(context.model, classKey).flatMap { doc.kind($0) == .string ? $0 : nil } ?? -1
    }

    /// Whether two `classNode(of:)` results name the same class (the same node, or the same text; -1 only matches
    /// -1), so a chain worked out for one serves the other.
    static func sameClass(_ a: Int, _ b: Int, in doc: JSONDocument) -> Bool {
        a == b || (a >= 0 && b >= 0 && sameText(a, b, in: doc))
    }

    /// Whether string nodes `a` and `b` are spelled with the same bytes (read in place: slices count references).
    private static func sameText(_ a: Int, _ b: Int, in doc: JSONDocument) -> Bool {
        doc.nodes.withUnsafeBufferPointer { nodes in
            let x = nodes[a], y = nodes[b]
            let length = Int(x.end &- x.start)
            guard length == Int(y.end &- y.start) else { return false }
            return doc.bytes.withUnsafeBufferPointer { bytes in
                memcmpEqual(bytes.baseAddress! + Int(x.start), bytes.baseAddress! + Int(y.start), length)
            }
        }
    }

    /// A class's types in chain order: its short name, then its full name (one of them when they are the same).
    static func classTypes(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBufferPointer { name in
            let full = String(decoding: name, as: UTF8.self)
            let start = Self.shortNameStart(name)
            return start == 0
                ? [full] : [String(decoding: UnsafeBufferPointer(rebasing: name[start...]), as: UTF8.self), full]
        }
    }

    /// Where a class's short name starts in its full name: after the last dot; 0 (the whole name) when there
    /// is no dot or nothing follows it.
    private static func shortNameStart(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        var dot = name.count
        while dot > 0 && name[dot - 1] != UInt8(ascii: ".") { dot -= 1 }
        return dot < name.count ? dot : 0
    }

    /// The class part of a row's chain: which of its `@class` short and full names are mapped.
    private func classLevels(_ classNode: Int, in doc: JSONDocument) -> TypeChainCache {
        var entry = TypeChainCache()
        entry.valid = true
        entry.classNode = classNode
        guard classNode >= 0 else { return entry }
        let node = doc.nodes[classNode]
        func levels(_ name: UnsafeBufferPointer<UInt8>) {
            let start = Self.shortNameStart(name)
            entry.short = rowType(UnsafeBufferPointer(rebasing: name[start...]))
            entry.full = start == 0 ? -1 : rowType(name)
        }
        if node.flags & JSONNode.Flags.escaped == 0 {
            doc.bytes.withUnsafeBufferPointer { b in
                levels(UnsafeBufferPointer(rebasing: b[Int(node.start) + 1..<Int(node.end) - 1]))
            }
        } else {
            doc.decodedStringBytes(classNode).withUnsafeBufferPointer { levels($0) }
        }
        return entry
    }

    /// The `rowTypes` index of the type spelled by `name`, or -1.
    private func rowType(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        for (n, entry) in rowTypes.enumerated() where entry.utf8.count == name.count {
            if name.isEmpty
                || entry.utf8.withUnsafeBufferPointer({ memcmpEqual($0.baseAddress!, name.baseAddress!, name.count) })
            {
                return n
            }
        }
        return -1
    }

    /// The outcome at one level of the chain (`rowTypes[entry]`): the one candidate whose condition holds,
    /// several (ambiguous), or nil.
    @inline(__always)
    private func resolve(_ context: ConditionContext, entry: Int) -> Resolution? {
        var matched = -1
        var more: [Int] = []
        rowTypes.withUnsafeBufferPointer { types in
            for n in types[entry].candidates where rowConditions[n]?.evaluate(context) ?? true {
                if matched < 0 { matched = n } else { more.append(n) }
            }
        }
        if matched < 0 { return nil }
        if more.isEmpty { return .resolved(renderer: rowRenderers[matched], type: rowTypes[entry].type) }
        return .ambiguous(type: rowTypes[entry].type, renderers: ([matched] + more).map { rowRenderers[$0] })
    }

    /// The supplementary view of `kind` for a section (nil when no mapping applies); the model is the item's field.
    public func resolveSupplementary(kind: String, item context: ConditionContext, adaptor: String) -> (
        resolution: Resolution, model: Int
    )? {
        supplementaryViews(item: context, adaptor: adaptor).first { $0.kind == kind }.map { ($0.resolution, $0.model) }
    }

    /// The mappings that can apply to sections of `sectionType` made by `adaptor`.
    public func sectionMappings(sectionType: String, adaptor: String) -> SectionMappings {
        var supplementary: [(kind: String, type: String, candidates: [Int])] = []
        for type in [sectionType, adaptor] {
            for (kind, candidates) in supplementaryByType[type] ?? [] { supplementary.append((kind, type, candidates)) }
        }
        let placeholders = SectionMappings.placeholderKinds.map { kind in
            [
                (sectionType, placeholdersByKind[kind]?[sectionType] ?? []),
                (adaptor, placeholdersByKind[kind]?[adaptor] ?? []),
                ("*", anyTypePlaceholders[kind] ?? []),
            ].filter { !$0.1.isEmpty }.map { (type: $0.0, candidates: $0.1) }
        }
        var rows: [Int] = []
        for type in [sectionType, adaptor] {
            if let entry = rowTypes.firstIndex(where: { $0.type == type }), !rows.contains(entry) { rows.append(entry) }
        }
        return SectionMappings(
            sectionType: sectionType, adaptor: adaptor, rows: rows, supplementary: supplementary,
            placeholders: placeholders)
    }

    /// Every supplementary view a section gets, in kind order: for each kind, the section type's mappings,
    /// else the adaptor's; the model is the item's field (kinds whose field is missing are left out).
    public func supplementaryViews(item context: ConditionContext, adaptor: String) -> [(
        kind: String, resolution: Resolution, model: Int
    )] {
        supplementaryViews(item: context, mappings: sectionMappings(sectionType: context.sectionType, adaptor: adaptor))
    }

    /// `supplementaryViews(item:adaptor:)` with the section type's mappings already looked up.
    public func supplementaryViews(item context: ConditionContext, mappings: SectionMappings) -> [(
        kind: String, resolution: Resolution, model: Int
    )] {
        var views: [(kind: String, resolution: Resolution, model: Int)] = []
        for (kind, type, candidates) in mappings.supplementary where !views.contains(where: { $0.kind == kind }) {
            var first = -1
            var more: [Int] = []
            for n in candidates where config.supplementary[n].condition?.evaluate(context) ?? true {
                if first < 0 { first = n } else { more.append(n) }
            }
            guard first >= 0 else { continue }
            let mapping = config.supplementary[first]
            guard let model = mapping.field.resolve(in: context.document, from: context.model) else { continue }
            let resolution: Resolution =
                more.isEmpty
                ? .resolved(renderer: mapping.renderer, type: type)
                : .ambiguous(type: type, renderers: ([first] + more).map { config.supplementary[$0].renderer })
            views.append((kind, resolution, model))
        }
        if views.count > 1 {
            let order = supplementaryKinds
            views.sort { order.firstIndex(of: $0.kind)! < order.firstIndex(of: $1.kind)! }
        }
        return views
    }

    /// The renderer for a placeholder of `kind` in a section (type-specific mappings first, then those for every type).
    public func resolvePlaceholder(_ kind: PlaceholderKind, item context: ConditionContext, adaptor: String)
        -> Resolution
    {
        resolvePlaceholder(
            kind, item: context, mappings: sectionMappings(sectionType: context.sectionType, adaptor: adaptor))
    }

    /// `resolvePlaceholder(_:item:adaptor:)` with the section type's mappings already looked up.
    public func resolvePlaceholder(_ kind: PlaceholderKind, item context: ConditionContext, mappings: SectionMappings)
        -> Resolution
    {
        for (type, candidates) in mappings.placeholders[SectionMappings.slot(kind)] {
            var matched: [Int] = []
            for n in candidates where config.placeholders[n].condition?.evaluate(context) ?? true { matched.append(n) }
            if matched.count == 1 { return .resolved(renderer: config.placeholders[matched[0]].renderer, type: type) }
            if matched.count > 1 {
                return .ambiguous(type: type, renderers: matched.map { config.placeholders[$0].renderer })
            }
        }
        // The last step: the built-in placeholder renderer every renderer kit ships (unless the config opts out).
        if config.options.builtInPlaceholders { return .defaulted(renderer: kind.builtInRenderer) }
        var tried = [mappings.sectionType]
        if mappings.adaptor != mappings.sectionType { tried.append(mappings.adaptor) }
        return .unmapped(tried: tried + ["*"])
    }
}
