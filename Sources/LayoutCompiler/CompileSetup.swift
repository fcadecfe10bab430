import Adaptors
import LayoutJSON
import LayoutRecord
import Mapping

/// What a compiler works out from its config once: the resolvers, the reader and the section plans. Shared by
/// reference (immutable), so a compile, its section builder and every `CompiledLayout` hold one reference instead of
/// copies of the config's and resolvers' dozens of arrays and dictionaries.
final class CompileSetup: Sendable {
    let config: MappingConfig
    let registry: AdaptorRegistry
    let resolver: RendererResolver
    let events: EventResolver
    let reader: JSONReader
    /// Plans for every content type the registry or the config names; other types get theirs per compile.
    let plans: PlanTable
    let writer = LayoutRecordWriter()

    init(config: MappingConfig, registry: AdaptorRegistry, maxInputBytes: Int) {
        self.config = config
        self.registry = registry
        let resolver = RendererResolver(config: config)
        self.resolver = resolver
        self.events = EventResolver(mappings: config.events)
        self.reader = JSONReader(maxDepth: config.options.maxDepth, maxBytes: maxInputBytes)
        var plans: [String: SectionPlan] = [:]
        let named =
            registry.registeredTypes + config.renderers.flatMap(\.types) + config.supplementary.flatMap(\.types)
            + config.placeholders.flatMap(\.types)
        for type in named where plans[type] == nil {
            plans[type] = Self.plan(for: type, config: config, registry: registry, resolver: resolver)
        }
        self.plans = PlanTable(plans)
    }

    /// The plan for sections of `type`.
    func plan(for type: String) -> SectionPlan {
        Self.plan(for: type, config: config, registry: registry, resolver: resolver)
    }

    private static func plan(
        for type: String, config: MappingConfig, registry: AdaptorRegistry, resolver: RendererResolver
    ) -> SectionPlan {
        let adaptor = registry.adaptor(for: type)
        let binding = config.adaptors[type]
        return SectionPlan(
            adaptor: adaptor, grouper: binding?.grouper,
            mappings: resolver.sectionMappings(sectionType: type, adaptor: adaptor.name),
            attributes: binding?.attributes ?? [])
    }
}
