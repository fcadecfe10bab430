import ContentTree

/// Chooses the adaptor for each content type (the server-side `adaptorForContentItem:` extension point).
public struct AdaptorRegistry: Sendable {
    private var byType: [String: any ContentItemAdaptor] = [:]
    /// The adaptor for types nobody registered.
    public var fallback: any ContentItemAdaptor = GenericAdaptor(rows: .auto)

    /// An empty registry (everything falls back to the automatic generic adaptor).
    public init() {}

    /// Stock Experience Manager cartridge types bound to the built-in adaptors.
    public static func standard() -> AdaptorRegistry {
        var registry = AdaptorRegistry()
        for type in ["ResultsList"] { registry.register(ResultsListAdaptor(), for: type) }
        for type in ["RefinementMenu"] { registry.register(RefinementMenuAdaptor(), for: type) }
        for type in ["Breadcrumbs", "BreadcrumbsMain"] { registry.register(BreadcrumbsAdaptor(), for: type) }
        for name in [AdaptorName.rangeFilter, .priceSlider, .searchBox] {
            registry.register(SingleRowAdaptor(name: name.rawValue), for: name.rawValue)
        }
        registry.register(SearchAdjustmentsAdaptor(), for: "SearchAdjustments")
        for type in [
            "PageSlot", "OneColumnPage", "TwoColumnPage", "ThreeColumnPage", "SearchResultsPage",
            "ContentSlot", "ContentSlot-Main", "ContentSlot-Secondary", "ContentSlot-Header", "ContentSlot-Footer",
            "ContentSlotMain", "ContentSlotSecondary", "GuidedNavigation",
        ] {
            registry.register(ContainerAdaptor(), for: type)
        }
        return registry
    }

    /// The built-in adaptor called `name` (as written in a mapping config), or nil.
    public static func builtIn(named name: String) -> (any ContentItemAdaptor)? {
        guard let builtIn = AdaptorName(rawValue: name) else { return nil }
        switch builtIn {
        case .resultsList: return ResultsListAdaptor()
        case .refinementMenu: return RefinementMenuAdaptor()
        case .breadcrumbs: return BreadcrumbsAdaptor()
        case .rangeFilter, .priceSlider, .searchBox: return SingleRowAdaptor(name: name)
        case .searchAdjustments: return SearchAdjustmentsAdaptor()
        case .container: return ContainerAdaptor()
        case .generic: return GenericAdaptor(rows: .auto)
        }
    }

    /// Names accepted by `builtIn(named:)`.
    public static var builtInNames: [String] { AdaptorName.allCases.map(\.rawValue) }

    /// Uses `adaptor` for items of `type`, replacing any earlier choice.
    public mutating func register(_ adaptor: any ContentItemAdaptor, for type: String) { byType[type] = adaptor }

    /// The adaptor for items of `type`.
    public func adaptor(for type: String) -> any ContentItemAdaptor { byType[type] ?? fallback }

    /// The content types with an explicit adaptor.
    public var registeredTypes: [String] { byType.keys.sorted() }
}
