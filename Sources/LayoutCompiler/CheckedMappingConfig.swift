public import ContentTree
import Foundation
public import LayoutCompiler
import LayoutKit
public import Logging
public import Mapping

/// A mapping config file as `serve` takes it, at start and on every reload: read once, loaded and checked like
/// `layout-worker check` does. A config with any error finding is refused; warnings come with it.
public struct CheckedMappingConfig: Sendable {
    public let path: String
    public let config: MappingConfig
    /// The name records carry (`OutputHeader.config`): XXH64 of the file's bytes, 16 hex digits.
    public let hash: String
    /// `check`'s warnings (the config is used all the same).
    public let warnings: [Diagnostic]

    /// Reads, loads and checks the config at `path`; the failure holds every error finding.
    public static func load(_ path: String) -> Result<CheckedMappingConfig, MappingConfigError> {
        let contents = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        let config: MappingConfig
        switch ConfigFile.load(contents: contents, path: path) {
        case .success(let c): config = c
        case .failure(let e): return .failure(e)
        }
        let findings = ConfigChecker().check(config)
        let errors = findings.filter { $0.severity == .error }
        guard errors.isEmpty else { return .failure(MappingConfigError(diagnostics: errors)) }
        return .success(
            CheckedMappingConfig(
                path: path, config: config, hash: ContentHash(of: contents ?? []).description,
                warnings: findings.filter { $0.severity != .error }))
    }

    /// Logs each of `check`'s warnings (at start and on every reload).
    public func logWarnings(_ logger: Logger) {
        for warning in warnings {
            logger.warning("config warning", metadata: ["finding": .string(warning.description)])
        }
    }
}

extension ConfigFile {
    /// The config in the file at `path` (read here, at the edge), or the errors that make it unusable (a file that
    /// cannot be read is one of them).
    public static func load(_ path: String) -> Result<MappingConfig, MappingConfigError> {
        load(contents: FileManager.default.contents(atPath: path).map { [UInt8]($0) }, path: path)
    }
}
