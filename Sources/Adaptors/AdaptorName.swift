/// The built-in adaptors, by the name a mapping config gives them (`adaptors: {COTO_ResultsList: ResultsList}`).
/// The one list: the registry, the config loader, `schemas/mapping-config.schema.json` and README's adaptor table
/// are checked against it.
public enum AdaptorName: String, CaseIterable, Sendable {
    case resultsList = "ResultsList"
    case refinementMenu = "RefinementMenu"
    case breadcrumbs = "Breadcrumbs"
    case rangeFilter = "RangeFilter"
    case priceSlider = "PriceSlider"
    case searchBox = "SearchBox"
    case searchAdjustments = "SearchAdjustments"
    case container = "Container"
    case generic = "Generic"
}
