public import ContentTree
import LayoutKit
public import Mapping

/// A mapping config file as every command takes it (`serve` at start and on every reload, `replay`, `compile`,
/// `diff`, `explain`, the preview; `check` reports the same findings): its bytes (read at the edge, `MappingFiles`)
/// loaded and checked by `ConfigChecker`. A config with any error finding is refused; warnings come with it.
public struct CheckedMappingConfig: Sendable {
    public let path: String
    public let config: MappingConfig
    /// The name records carry (`Wire.Header.config`): XXH64 of the file's bytes, 16 hex digits.
    public let hash: String
    /// `check`'s warnings (the config is used all the same).
    public let warnings: [Diagnostic]
    /// `check`'s error findings, when the config was taken all the same (`acceptingErrors`); else empty.
    public let acceptedErrors: [Diagnostic]

    /// Loads and checks `contents`, read from `path` (nil: it could not be read); the failure holds every error
    /// finding (with `acceptingErrors`, only a config that does not load fails; its errors are `acceptedErrors`).
    public static func load(contents: [UInt8]?, path: String, acceptingErrors: Bool = false) -> Result<
        CheckedMappingConfig, MappingConfigError
    > {
        let config: MappingConfig
        switch ConfigFile.load(contents: contents, path: path) {
        case .success(let c): config = c
        case .failure(let e): return .failure(e)
        }
        let findings = ConfigChecker().check(config)
        let errors = findings.filter { $0.severity == .error }
        guard errors.isEmpty || acceptingErrors else { return .failure(MappingConfigError(diagnostics: errors)) }
        return .success(
            CheckedMappingConfig(
                path: path, config: config, hash: ContentHash(of: contents ?? []).description,
                warnings: findings.filter { $0.severity != .error }, acceptedErrors: errors))
    }
}
