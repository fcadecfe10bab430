public import Adaptors

/// A complete mapping config: adaptors per content type, renderers, supplementary views, placeholders, policy.
public struct MappingConfig: Sendable {
    public var version = 1
    public var policy = Policy.lenient
    /// The renderer for rows no mapping matches (the last step of the fallback chain); nil reports them as unmapped.
    public var defaultRenderer: String?
    public var options = CompileOptions()
    /// Adaptor choice per content type, on top of the standard registry.
    public var adaptors: [String: AdaptorBinding] = [:]
    public var renderers: [RendererMapping] = []
    public var supplementary: [SupplementaryMapping] = []
    public var placeholders: [PlaceholderMapping] = []
    /// What rows do on named events (`onSelect`, `onAppear`, …).
    public var events: [EventMapping] = []
    /// How section ids are made for types without an entry in `sectionIds`.
    public var defaultSectionIdentity = SectionIdentity.editor
    /// How section ids are made, per content type.
    public var sectionIds: [String: SectionIdentity] = [:]
    /// Where the config came from (a file path), for messages.
    public var origin = "config"

    public init() {}

    /// How ids are made for sections of `type`.
    public func sectionIdentity(for type: String) -> SectionIdentity {
        sectionIds.isEmpty ? defaultSectionIdentity : sectionIds[type] ?? defaultSectionIdentity
    }

    /// The section attributes the config carries across reloads, per content type (see `AdaptorBinding.carry`), for
    /// `AttributeCarrier`.
    public func carriedAttributes() -> [String: [AttributeCarry]] {
        var out: [String: [AttributeCarry]] = [:]
        for (type, binding) in adaptors where !binding.carry.isEmpty {
            out[type] = binding.carry.map { $0.merge.carry(named: $0.name) }
        }
        return out
    }

    /// Every renderer name the config can give a row, supplementary view or placeholder: its mappings', its
    /// default renderer and the built-in placeholder renderers.
    public var rendererNames: Set<String> {
        var names = Set(renderers.map(\.renderer) + supplementary.map(\.renderer) + placeholders.map(\.renderer))
        if let defaultRenderer { names.insert(defaultRenderer) }
        names.formUnion(PlaceholderKind.allCases.map(\.builtInRenderer))
        return names
    }

    /// The adaptor registry this config describes: the standard bindings plus its own.
    public func registry() -> AdaptorRegistry {
        var registry = AdaptorRegistry.standard()
        for (type, binding) in adaptors { registry.register(binding.adaptor, for: type) }
        return registry
    }
}
