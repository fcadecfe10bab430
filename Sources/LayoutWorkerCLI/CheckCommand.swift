import ArgumentParser
import ContentTree
import LayoutCompiler
import LayoutJSON
import LayoutRecord
import Mapping

/// `layout-worker check`: validate a config, and show how each row of given responses resolves.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a mapping config statically and report every row's resolution for the given responses."
    )

    @Argument(help: "Mapping config (YAML).")
    var config: String

    @Argument(help: "Responses to resolve against the config.")
    var responses: [String] = []

    @OptionGroup var limit: InputLimitOptions

    func run() throws {
        let mapping: MappingConfig
        switch ConfigFile.load(config) {
        case .success(let c): mapping = c
        case .failure(let e):
            for d in e.diagnostics { Output.line(d.description) }
            Output.error("\(config): \(e.diagnostics.count) error\(e.diagnostics.count == 1 ? "" : "s")")
            throw ExitCode(1)
        }
        var errors = 0
        for finding in ConfigChecker().check(mapping) {
            Output.line(finding.description)
            if finding.severity == .error { errors += 1 }
        }
        let compiler = LayoutCompiler(config: mapping, maxInputBytes: limit.maxInputBytes)
        for path in responses {
            let input: NamedInput
            switch InputSource.file(path, maxBytes: limit.maxInputBytes) {
            case .success(let i): input = i
            case .failure(let e):
                Output.line("error [\(e.code)] \(e.name): \(e.message)")
                errors += 1
                continue
            }
            let document: JSONDocument
            do {
                document = try JSONReader(maxDepth: mapping.options.maxDepth).read(input.bytes)
            } catch {
                Output.line("error [invalid-json] \(path): \(error)")
                errors += 1
                continue
            }
            let record = compiler.layout(ContentTree(document: document), source: RecordSource(file: path))
            Output.line(
                "\(path): \(record.sections.count) sections, \(record.sections.reduce(0) { $0 + $1.rows.count }) rows")
            for section in record.sections {
                let flags = section.visible ? "" : " (not visible)"
                Output.line("  [\(section.index)] \(section.id) \(section.type) → \(section.adaptor)\(flags)")
                for view in section.supplementary {
                    Output.line("      \(view.kind) → \(view.renderer ?? "UNRESOLVED")")
                }
                if let p = section.placeholder {
                    Output.line("      placeholder \(p.kind.rawValue) → \(p.renderer ?? "UNRESOLVED")")
                }
                for (n, row) in section.rows.enumerated() {
                    Output.line("      row \(n) id=\(row.id) → \(row.renderer ?? "UNRESOLVED")")
                }
            }
            for d in record.diagnostics {
                Output.line("  \(d)")
                if d.severity == .error { errors += 1 }
            }
        }
        if errors > 0 {
            Output.error("\(errors) error\(errors == 1 ? "" : "s")")
            throw ExitCode(1)
        }
        Output.line("ok")
    }
}

extension CheckCommand: FileListCommand {
    static let positionalsBeforeFiles = 1  // the config
    var files: [String] {
        get { responses }
        set { responses = newValue }
    }
}
