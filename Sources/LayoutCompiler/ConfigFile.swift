import ContentTree
public import Foundation
public import Mapping

/// Loads mapping configs from files.
public enum ConfigFile {
    /// The config at `path`, or the errors that make it unusable (a missing file is one of them).
    public static func load(_ path: String) -> Result<MappingConfig, MappingConfigError> {
        load(contents: FileManager.default.contents(atPath: path), path: path)
    }

    /// The config in `contents`, the bytes read from `path` (nil when it could not be read).
    public static func load(contents data: Data?, path: String) -> Result<MappingConfig, MappingConfigError> {
        guard let data else {
            return .failure(
                MappingConfigError(diagnostics: [
                    .init(.error, "config-not-found", path: path, "cannot read the config file")
                ]))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(
                MappingConfigError(diagnostics: [
                    .init(.error, "config-encoding", path: path, "the config file is not UTF-8")
                ]))
        }
        return MappingConfigLoader().load(yaml: text, origin: path)
    }
}
