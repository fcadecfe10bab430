import Foundation
public import LayoutCompiler
public import Mapping

// Mapping config files read from disk: the compiler takes bytes, and this is the edge that reads them (`serve` at
// start and on every reload, the other commands, the tests).

extension CheckedMappingConfig {
    /// Reads, loads and checks the config at `path`; the failure holds every error finding (with
    /// `acceptingErrors`, only a config that does not load fails).
    public static func load(_ path: String, acceptingErrors: Bool = false) -> Result<
        CheckedMappingConfig, MappingConfigError
    > {
        load(contents: fileBytes(path), path: path, acceptingErrors: acceptingErrors)
    }
}

extension ConfigFile {
    /// The config in the file at `path` (read here, at the edge), or the errors that make it unusable (a file that
    /// cannot be read is one of them).
    public static func load(_ path: String) -> Result<MappingConfig, MappingConfigError> {
        load(contents: fileBytes(path), path: path)
    }
}

/// The bytes of the file at `path`, or nil when it cannot be read (`load` reports that as one of the errors).
private func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}
