/// Every rule a `Diagnostic` can name: the one definition of the codes records, `check`, logs and metric labels
/// carry (docs/mapping-config.md lists them; a test checks that it lists them all).
public enum DiagnosticCode: String, CaseIterable, Sendable {
    // A response's findings (in records' `diagnostics`).
    case unmapped = "unmapped"
    case ambiguous = "ambiguous"
    case cartridgeError = "cartridge-error"
    case invalidType = "invalid-type"
    case typeAndClass = "type-and-class"
    case duplicateType = "duplicate-type"
    case duplicateRowId = "duplicate-row-id"
    case duplicateSectionId = "duplicate-section-id"
    case rowsUnreadable = "rows-unreadable"
    case pagingOutOfRange = "paging-out-of-range"
    case groupTypeMismatch = "group-type-mismatch"
    // A mapping config's findings (`check`, and `serve` at start and on reload).
    case yamlSyntax = "yaml-syntax"
    case duplicateKey = "duplicate-key"
    case unknownField = "unknown-field"
    case wrongType = "wrong-type"
    case wrongValue = "wrong-value"
    case wrongField = "wrong-field"
    case missingField = "missing-field"
    case unknownAdaptor = "unknown-adaptor"
    case unsupportedVersion = "unsupported-version"
    case conditionSyntax = "condition-syntax"
    case fieldPathSyntax = "field-path-syntax"
    case duplicateMapping = "duplicate-mapping"
    case unreachableMapping = "unreachable-mapping"
    case indistinguishableConditions = "indistinguishable-conditions"
    case overlappingConditions = "overlapping-conditions"
    case undecidedOverlap = "undecided-overlap"
    case noDefaultRenderer = "no-default-renderer"
    case emptyConfig = "empty-config"
    case unknownType = "unknown-type"
    case neverMatched = "never-matched"
    case rowsFieldMissing = "rows-field-missing"
    case unknownAttribute = "unknown-attribute"
    case placeholderNeverShown = "placeholder-never-shown"
    case placeholderNotDrawn = "placeholder-not-drawn"
    // What one app version (`check --client`) makes of a response's rows.
    case clientFallback = "client-fallback"
    case clientMissing = "client-missing"
    case clientUnknown = "client-unknown"
    case configNotFound = "config-not-found"
    case configEncoding = "config-encoding"

    /// A problem of the response's own data (an `@error`, a malformed field, duplicate ids), which no config
    /// change fixes: `check` reports it apart from the config's findings and fails on it only with `--fail-on-data`.
    public var isResponseData: Bool {
        switch self {
        case .cartridgeError, .invalidType, .typeAndClass, .duplicateType, .duplicateRowId, .duplicateSectionId,
            .rowsUnreadable, .pagingOutOfRange, .groupTypeMismatch:
            return true
        default: return false
        }
    }
}
