import Adaptors
import ContentTree

/// The findings about placeholders a config's options decide (part of `ConfigChecker`'s): a placeholder mapping its
/// options never show, and, without the built-in placeholder renderers, a kind the responses can show that no
/// mapping draws.
enum PlaceholderFindings {
    static func of(_ config: MappingConfig) -> [Diagnostic] {
        let options = config.options
        let registry = config.registry()
        var findings: [Diagnostic] = []
        for m in config.placeholders {
            guard let needed = Self.optionShowing(m, in: config, registry), !needed.isOn else { continue }
            findings.append(
                Diagnostic(
                    .warning, .placeholderNeverShown, path: ConfigChecker.place(config, m.location),
                    "\(m.kind.rawValue) placeholder \(m.renderer) is never shown: \(needed.what) only with options.\(needed.name): true (off by default); set it, or remove this mapping"
                ))
        }
        guard !options.builtInPlaceholders else { return findings }
        var shown: [(kind: PlaceholderKind, when: String)] = [
            (.noResults, "a results list with no records"), (.error, "an item with @error"),
        ]
        if options.emptySlotsShowLoading { shown.append((.loading, "an item whose content is deferred")) }
        for (kind, when) in shown where !config.placeholders.contains(where: { $0.kind == kind }) {
            findings.append(
                Diagnostic(
                    .warning, .placeholderNotDrawn, path: config.origin,
                    "\(when) shows the \(kind.rawValue) placeholder, which nothing draws (no placeholders mapping for it, and options.builtInPlaceholders is false): it is reported unmapped; add `placeholders: [{kind: \(kind.rawValue), renderer: YOUR_CELL}]`, or remove builtInPlaceholders: false"
                ))
        }
        return findings
    }

    /// The option a placeholder mapping's sections show its kind under, when one does: loading placeholders come only
    /// with `emptySlotsShowLoading`, and noResults ones for refinement menus only with `emptyMenusShowNoResults`.
    /// `registry` is the config's (`MappingConfig.registry()`); a mapping's types may also name adaptors.
    private static func optionShowing(
        _ m: PlaceholderMapping, in config: MappingConfig, _ registry: AdaptorRegistry
    ) -> (name: String, isOn: Bool, what: String)? {
        switch m.kind {
        case .loading:
            return ("emptySlotsShowLoading", config.options.emptySlotsShowLoading, "a deferred slot shows it")
        case .noResults:
            let menusOnly =
                !m.types.isEmpty
                && m.types.allSatisfy { type in
                    let adaptor =
                        AdaptorRegistry.builtInNames.contains(type) ? type : registry.adaptor(for: type).name
                    return adaptor == AdaptorName.refinementMenu.rawValue
                }
            guard menusOnly else { return nil }
            return (
                "emptyMenusShowNoResults", config.options.emptyMenusShowNoResults, "an empty refinement menu shows it"
            )
        case .error:
            return nil
        }
    }
}
