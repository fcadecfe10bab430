public import LayoutJSON
public import Adaptors

/// The fallback chain worked out for one `@class`, kept while consecutive rows share it.
public struct TypeChainCache: Sendable {
    var valid = false
    var classBytes: ArraySlice<UInt8>?
    var sectionType = ""
    var adaptor = ""
    var chain: [String] = []
    var levels: [(String, [Int])] = []

    public init() {}

    init(valid: Bool, classBytes: ArraySlice<UInt8>?, sectionType: String, adaptor: String, chain: [String], levels: [(String, [Int])]) {
        self.valid = valid
        self.classBytes = classBytes
        self.sectionType = sectionType
        self.adaptor = adaptor
        self.chain = chain
        self.levels = levels
    }
}

/// Finds the one renderer for each row, supplementary view and placeholder, by the fallback chain and conditions.
public struct RendererResolver: Sendable {
    public let config: MappingConfig
    private let rowsByType: [String: [Int]]
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
    static let classKey: JSONKey = "@class"

    public init(config: MappingConfig) {
        self.config = config
        var rows: [String: [Int]] = [:]
        for (n, m) in config.renderers.enumerated() { for t in Set(m.types) { rows[t, default: []].append(n) } }
        var supplementary: [String: [String: [Int]]] = [:]
        for (n, m) in config.supplementary.enumerated() { for t in Set(m.types) { supplementary[m.kind, default: [:]][t, default: []].append(n) } }
        var placeholders: [PlaceholderKind: [String: [Int]]] = [:]
        var anyType: [PlaceholderKind: [Int]] = [:]
        for (n, m) in config.placeholders.enumerated() {
            if m.types.isEmpty { anyType[m.kind, default: []].append(n) }
            for t in Set(m.types) { placeholders[m.kind, default: [:]][t, default: []].append(n) }
        }
        rowsByType = rows
        supplementaryByKind = supplementary
        var kinds: [String] = []
        for m in config.supplementary where !kinds.contains(m.kind) { kinds.append(m.kind) }
        var byType: [String: [(kind: String, candidates: [Int])]] = [:]
        for kind in kinds {
            for (type, candidates) in supplementary[kind] ?? [:] { byType[type, default: []].append((kind, candidates)) }
        }
        for type in byType.keys { byType[type]!.sort { kinds.firstIndex(of: $0.kind)! < kinds.firstIndex(of: $1.kind)! } }
        supplementaryByType = byType
        supplementaryKinds = kinds
        placeholdersByKind = placeholders
        anyTypePlaceholders = anyType
        rowConditions = config.renderers.map(\.condition)
        rowRenderers = config.renderers.map(\.renderer)
    }

    /// The fallback chain for a row model: `@class` short name, full class name, section type, adaptor name.
    public func typeChain(model: Int, in doc: JSONDocument, sectionType: String, adaptor: String) -> [String] {
        var chain: [String] = []
        if let c = doc.value(model, Self.classKey), doc.kind(c) == .string {
            let bytes = doc.decodedStringBytes(c)
            let full = String(decoding: bytes, as: UTF8.self)
            if let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot + 1 < bytes.count {
                chain.append(String(decoding: bytes[(dot + 1)...], as: UTF8.self))
                chain.append(full)
            } else {
                chain.append(full)
            }
        }
        for t in [sectionType, adaptor] where !chain.contains(t) { chain.append(t) }
        return chain
    }

    /// The renderer for one row.
    public func resolveRow(_ context: ConditionContext, adaptor: String) -> Resolution {
        var cache = TypeChainCache()
        return resolveRow(context, adaptor: adaptor, cache: &cache)
    }

    /// The renderer for one row, reusing the fallback chain of the previous row when its `@class` is the same.
    public func resolveRow(_ context: ConditionContext, adaptor: String, cache: inout TypeChainCache) -> Resolution {
        let doc = context.document
        let classNode = doc.value(context.model, Self.classKey).flatMap { doc.kind($0) == .string ? $0 : nil }
        let classBytes = classNode.map { doc.raw($0) }
        if !cache.valid || !Self.sameClass(cache.classBytes, classBytes) || cache.sectionType != context.sectionType || cache.adaptor != adaptor {
            let chain = typeChain(model: context.model, in: doc, sectionType: context.sectionType, adaptor: adaptor)
            cache = TypeChainCache(valid: true, classBytes: classBytes, sectionType: context.sectionType, adaptor: adaptor,
                                   chain: chain, levels: chain.compactMap { type in rowsByType[type].map { (type, $0) } })
        }
        for (type, candidates) in cache.levels {
            var matched = -1
            var more: [Int] = []
            for n in candidates where rowConditions[n]?.evaluate(context) ?? true {
                if matched < 0 { matched = n } else { more.append(n) }
            }
            if matched >= 0 && more.isEmpty { return .resolved(renderer: rowRenderers[matched], type: type) }
            if matched >= 0 { return .ambiguous(type: type, renderers: ([matched] + more).map { rowRenderers[$0] }) }
        }
        if let d = config.defaultRenderer { return .defaulted(renderer: d) }
        return .unmapped(tried: cache.chain)
    }

    /// Whether two rows' `@class` bytes are the same (both absent counts as the same).
    static func sameClass(_ a: ArraySlice<UInt8>?, _ b: ArraySlice<UInt8>?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return sameBytes(a, b)
    }

    /// The supplementary view of `kind` for a section (nil when no mapping applies); the model is the item's field.
    public func resolveSupplementary(kind: String, item context: ConditionContext, adaptor: String) -> (resolution: Resolution, model: Int)? {
        supplementaryViews(item: context, adaptor: adaptor).first { $0.kind == kind }.map { ($0.resolution, $0.model) }
    }

    /// The mappings that can apply to sections of `sectionType` made by `adaptor`.
    public func sectionMappings(sectionType: String, adaptor: String) -> SectionMappings {
        var supplementary: [(kind: String, type: String, candidates: [Int])] = []
        for type in [sectionType, adaptor] {
            for (kind, candidates) in supplementaryByType[type] ?? [] { supplementary.append((kind, type, candidates)) }
        }
        let placeholders = SectionMappings.placeholderKinds.map { kind in
            [(sectionType, placeholdersByKind[kind]?[sectionType] ?? []), (adaptor, placeholdersByKind[kind]?[adaptor] ?? []),
             ("*", anyTypePlaceholders[kind] ?? [])].filter { !$0.1.isEmpty }.map { (type: $0.0, candidates: $0.1) }
        }
        return SectionMappings(sectionType: sectionType, adaptor: adaptor, supplementary: supplementary, placeholders: placeholders)
    }

    /// Every supplementary view a section gets, in kind order: for each kind, the section type's mappings,
    /// else the adaptor's; the model is the item's field (kinds whose field is missing are left out).
    public func supplementaryViews(item context: ConditionContext, adaptor: String) -> [(kind: String, resolution: Resolution, model: Int)] {
        supplementaryViews(item: context, mappings: sectionMappings(sectionType: context.sectionType, adaptor: adaptor))
    }

    /// `supplementaryViews(item:adaptor:)` with the section type's mappings already looked up.
    public func supplementaryViews(item context: ConditionContext, mappings: SectionMappings) -> [(kind: String, resolution: Resolution, model: Int)] {
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
            let resolution: Resolution = more.isEmpty
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
    public func resolvePlaceholder(_ kind: PlaceholderKind, item context: ConditionContext, adaptor: String) -> Resolution {
        resolvePlaceholder(kind, item: context, mappings: sectionMappings(sectionType: context.sectionType, adaptor: adaptor))
    }

    /// `resolvePlaceholder(_:item:adaptor:)` with the section type's mappings already looked up.
    public func resolvePlaceholder(_ kind: PlaceholderKind, item context: ConditionContext, mappings: SectionMappings) -> Resolution {
        for (type, candidates) in mappings.placeholders[SectionMappings.slot(kind)] {
            var matched: [Int] = []
            for n in candidates where config.placeholders[n].condition?.evaluate(context) ?? true { matched.append(n) }
            if matched.count == 1 { return .resolved(renderer: config.placeholders[matched[0]].renderer, type: type) }
            if matched.count > 1 { return .ambiguous(type: type, renderers: matched.map { config.placeholders[$0].renderer }) }
        }
        return .unmapped(tried: [mappings.sectionType, mappings.adaptor, "*"])
    }
}
