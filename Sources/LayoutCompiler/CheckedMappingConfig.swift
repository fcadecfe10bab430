public import ContentTree
import Foundation
import LayoutKit
public import Mapping

/// A mapping config file as every command takes it (`serve` at start and on every reload, `replay`, `compile`,
/// `diff`, `explain`, the preview; `check` reports the same findings): read once, loaded and checked by
/// `ConfigChecker`. A config with any error finding is refused; warnings come with it.
public struct CheckedMappingConfig: Sendable {
    public let path: String
    public let config: MappingConfig
    /// The name records carry (`Wire.Header.config`): XXH64 of the file's bytes, 16 hex digits.
    public let hash: String
    /// `check`'s warnings (the config is used all the same).
    public let warnings: [Diagnostic]
    /// `check`'s error findings, when the config was taken all the same (`acceptingErrors`); else empty.
    public let acceptedErrors: [Diagnostic]

    /// Reads, loads and checks the config at `path`; the failure holds every error finding (with
    /// `acceptingErrors`, only a config that does not load fails).
    public static func load(_ path: String, acceptingErrors: Bool = false) -> Result<
        CheckedMappingConfig, MappingConfigError
    > {
        load(
            contents: FileManager.default.contents(atPath: path).map { [UInt8]($0) }, path: path,
            acceptingErrors: acceptingErrors)
    }

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

extension ConfigFile {
    /// The config in the file at `path` (read here, at the edge), or the errors that make it unusable (a file that
    /// cannot be read is one of them).
    public static func load(_ path: String) -> Result<MappingConfig, MappingConfigError> {
        load(contents: FileManager.default.contents(atPath: path).map { [UInt8]($0) }, path: path)
    }
}
