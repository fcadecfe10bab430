public import LayoutCompiler
public import LayoutRecord
import Mapping
import MappingFiles

/// The shipped default config's compiler and the samples' records, as tests of several modules need them.
public enum Samples {
    /// The compiler of `config/default.yaml`.
    public static let compiler = LayoutCompiler(
        config: try! ConfigFile.load(Fixtures.path("config/default.yaml")).get())

    /// `samples/NAME.json` compiled with the default config (its source named `source`, as a command names it).
    public static func record(_ name: String, source: RecordSource? = nil) throws -> [UInt8] {
        try compiler.compile(Fixtures.bytes("samples/\(name).json"), source: source).get().bytes
    }
}
