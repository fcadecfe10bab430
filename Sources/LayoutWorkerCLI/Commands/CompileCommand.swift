import ArgumentParser
import Foundation
import LayoutCompiler
import Mapping

/// `layout-worker compile`: one layout record per input, one per line.
struct CompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile responses (files, or NDJSON on stdin) into layout records on stdout."
    )

    @Option(name: .long, help: ArgumentHelp(DefaultMappingConfig.help)) var config: String?

    @Flag(name: .long, help: "Indent the records (models are re-indented too).")
    var pretty = false

    @OptionGroup var limit: InputLimitOptions
    @OptionGroup var accept: AcceptCheckErrorsOption

    @Argument(help: "Response files; none or '-' reads NDJSON from stdin.")
    var files: [String] = []

    @Option(
        name: .long,
        help: "Responses compiled at once, one per thread (default: one per core); output keeps the input order.")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more, not \(jobs)") }
    }

    func run() throws {
        let mapping = try loadConfigToInspectOrExit(
            DefaultMappingConfig.path(given: config), accepting: accept.accept)
        var queue = CompileQueue(
            compiler: LayoutCompiler(config: mapping, maxInputBytes: limit.maxInputBytes),
            maxInputBytes: limit.maxInputBytes, pretty: pretty,
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        if files.isEmpty || files == ["-"] {
            InputSource.forEachStandardInputLine(maxBytes: limit.maxInputBytes) { queue.add(.read($0)) }
        } else {
            for f in files {
                queue.add(
                    f == "-"
                        ? .read(.failure(InputError(name: "-", message: "'-' cannot be mixed with files"))) : .file(f))
            }
        }
        queue.flush()
        for (hint, count) in queue.hints.sorted(by: { $0.value > $1.value }) {
            if let summary = hint.summary(count: count) { Output.error(summary) }
        }
        if queue.failed > 0 {
            Output.error("\(queue.failed) of \(queue.total) input\(queue.total == 1 ? "" : "s") failed")
            throw ExitCode(1)
        }
    }
}

extension CompileCommand: FileListCommand {
    static let positionalsBeforeFiles = 0
}
