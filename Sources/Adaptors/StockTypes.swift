/// The content types Experience Manager's stock cartridges and models use: the cartridge types the standard
/// registry adapts, and the model classes of their rows (the short names of `com.endeca.infront.cartridge.model.*`,
/// which is how a mapping config names them). What `check` compares a mapping's types with to catch a misspelt one.
public enum StockTypes {
    /// Short class names of the stock cartridge models that become rows (or sit in rows).
    public static let rowClasses = [
        "Record", "RecordAction", "Refinement", "RefinementBreadcrumb", "SearchBreadcrumb", "RangeFilterBreadcrumb",
        "NavigationAction", "SortOptionLabel", "Ancestor", "AdjustedSearch", "SiteState", "SiteDefinition",
        "LinkBuilder", "Action", "UrlAction", "SupplementAction",
    ]

    /// Every stock name a mapping's `types` can mean: row classes, the standard registry's cartridge types and the
    /// built-in adaptors' names.
    public static var all: Set<String> {
        Set(rowClasses).union(AdaptorRegistry.standard().registeredTypes).union(AdaptorRegistry.builtInNames)
    }
}
