import ContentTree
public import Mapping

/// Mapping configs from the bytes of their files. Reading the files is the edges' work (`serve`, the command
/// line, the preview): the compiler never touches a file.
public enum ConfigFile {
    /// The config in `contents`, the bytes read from `path` (nil when it could not be read; `path` names it in
    /// findings), or the errors that make it unusable.
    public static func load(contents: [UInt8]?, path: String) -> Result<MappingConfig, MappingConfigError> {
        guard let contents else {
            return .failure(
                MappingConfigError(diagnostics: [
                    .init(.error, .configNotFound, path: path, "cannot read the config file")
                ]))
        }
        guard let text = String(validating: contents, as: UTF8.self) else {
            return .failure(
                MappingConfigError(diagnostics: [
                    .init(.error, .configEncoding, path: path, "the config file is not UTF-8")
                ]))
        }
        return MappingConfigLoader().load(yaml: text, origin: path)
    }
}
