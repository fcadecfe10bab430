import ArgumentParser
import LayoutCompiler
import LayoutJSON
import LayoutRecord
import Mapping

/// `layout-worker compile`: one layout record per input, one per line.
struct CompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile responses (files, or NDJSON on stdin) into layout records on stdout."
    )

    @Option(
        name: .long,
        help: "Mapping config (YAML; default: config/default.yaml here, beside the binary, or in /etc/layout-worker).")
    var config: String?

    @Flag(name: .long, help: "Indent the records (models are re-indented too).")
    var pretty = false

    @OptionGroup var limit: InputLimitOptions

    @Argument(help: "Response files; none or '-' reads NDJSON from stdin.")
    var files: [String] = []

    func run() throws {
        let mapping = try loadMappingConfigOrExit(config ?? DefaultMappingConfig.path())
        let compiler = LayoutCompiler(config: mapping, maxInputBytes: limit.maxInputBytes)
        var failed = 0, total = 0
        func compile(_ input: Result<NamedInput, InputError>) {
            total += 1
            switch input {
            case .failure(let e):
                Output.error("\(e.name): \(e.message)")
                failed += 1
            case .success(let input):
                switch compiler.compile(input.bytes, source: RecordSource(file: input.name)) {
                case .success(let compiled):
                    if pretty, let doc = try? JSONReader().read(compiled.bytes) {
                        Output.out(JSONPrettyPrinter.format(doc))
                    } else {
                        Output.outLine(compiled.bytes)
                    }
                case .failure(let failure):
                    Output.error("\(input.name): \(failure)")
                    failed += 1
                }
            }
        }
        if files.isEmpty || files == ["-"] {
            InputSource.forEachStandardInputLine(maxBytes: limit.maxInputBytes, compile)
        } else {
            for f in files {
                compile(
                    f == "-"
                        ? .failure(InputError(name: "-", message: "'-' cannot be mixed with files"))
                        : InputSource.file(f, maxBytes: limit.maxInputBytes))
            }
        }
        if failed > 0 {
            Output.error("\(failed) of \(total) input\(total == 1 ? "" : "s") failed")
            throw ExitCode(1)
        }
    }
}

extension CompileCommand: FileListCommand {
    static let positionalsBeforeFiles = 0
}
