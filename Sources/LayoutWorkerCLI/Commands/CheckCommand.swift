import ArgumentParser
import ContentTree
import Foundation
import LayoutCompiler
import LayoutJSON
import LayoutRecord
import Mapping
import MappingFiles

/// `layout-worker check`: validate a config, and show how each row of given responses resolves; against the
/// responses, also what the config names that they never have (typos, mappings that match nothing).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a mapping config statically and report every row's resolution for the given responses.",
        discussion: """
            Exit status: 0 when no finding is at or above --fail-on (default error), 1 when one is, 2 when the \
            config cannot be read or parsed. --format json prints one document (schemas/check-report.schema.json).
            """
    )

    /// A severity as `--fail-on` spells it.
    enum Threshold: String, ExpressibleByArgument, CaseIterable {
        case error, warning, info
        var severity: Diagnostic.Severity { Diagnostic.Severity(rawValue: rawValue)! }
    }

    @Option(
        help:
            "Mapping config (YAML; default: the first argument unless that is a response (.json, .ndjson, .jsonl or '-'), else LAYOUT_WORKER_CONFIG, else \(DefaultMappingConfig.places))"
    ) var config: String?

    @Argument(
        help:
            "The mapping config (unless --config or LAYOUT_WORKER_CONFIG gives it), then responses to resolve against it; '-' reads NDJSON from stdin (one response a line)."
    )
    var paths: [String] = []

    /// The config and the responses `--config` (`flag`), the arguments and `LAYOUT_WORKER_CONFIG` name: `check C R`
    /// and `check --config C R` mean the same.
    static func configAndResponses(
        _ paths: [String], flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (config: String, responses: [String]) {
        if let flag { return (flag, paths) }
        if let first = paths.first, first != "-", !Self.responseSuffixes.contains(where: first.lowercased().hasSuffix) {
            return (first, Array(paths.dropFirst()))
        }
        return (try DefaultMappingConfig.path(given: nil, environment: environment), paths)
    }

    /// Files taken for responses, not for the config, in the first argument.
    static let responseSuffixes = [".json", ".ndjson", ".jsonl"]

    @Option(help: "Output: text (for people) or json (one document, for CI).")
    var format: OutputFormat = .text

    @Option(
        name: .customLong("fail-on"), help: "The least severe finding that fails the check: error, warning or info.")
    var failOn: Threshold = .error

    @Flag(
        name: .customLong("fail-on-data"),
        help:
            "Fail on the responses' own data problems too (an @error, a malformed field, duplicate ids: marked 'data', reported apart; no config change fixes them)."
    )
    var failOnData = false

    @Option(
        help:
            "A file listing the renderers one app version has (one a line, or a JSON list): report the rows it would draw with a fallback or not at all."
    ) var client: String?

    @OptionGroup var limit: InputLimitOptions

    func run() throws {
        let (config, responses) = try Self.configAndResponses(paths, flag: self.config)
        var report = CheckReport(config: config)
        let app: ClientRenderers?
        do {
            app = try client.map(ClientRenderers.load)
        } catch {
            Output.error("\(error)")
            throw ExitCode(1)
        }
        let mapping: MappingConfig
        switch ConfigFile.load(config) {
        case .success(let c): mapping = c
        case .failure(let e):
            report.findings = e.diagnostics.map(CheckReport.configFinding)
            report.tally(failOn: .error)
            emit(report)
            if format == .text {
                Output.error("\(config): \(e.diagnostics.count) error\(e.diagnostics.count == 1 ? "" : "s")")
            }
            throw ExitCode(2)
        }
        var survey = ResponseSurvey()
        let compiler = LayoutCompiler(config: mapping, maxInputBytes: limit.maxInputBytes)
        for path in responses {
            if path == "-" {
                InputSource.forEachStandardInputLine(maxBytes: limit.maxInputBytes) {
                    report.responses.append(compile($0, with: compiler, app: app, into: &survey))
                }
            } else {
                report.responses.append(
                    compile(
                        InputSource.file(path, maxBytes: limit.maxInputBytes), with: compiler, app: app, into: &survey))
            }
        }
        report.findings =
            (ConfigChecker().check(mapping, against: responses.isEmpty ? nil : survey)
            + (app?.unknownNames(in: mapping) ?? [])).map(CheckReport.configFinding)
        report.tally(failOn: failOn.severity, failOnData: failOnData)
        emit(report)
        let data =
            report.dataProblems == 0 || failOnData
            ? ""
            : " (and \(report.dataProblems) data problem\(report.dataProblems == 1 ? "" : "s") of the responses themselves, marked 'data': not failing without --fail-on-data)"
        guard report.ok else {
            if format == .text {
                let n = report.failing(at: failOn.severity, failOnData: failOnData)
                Output.error("\(n) finding\(n == 1 ? "" : "s") at \(failOn.rawValue) or worse\(data)")
            }
            throw ExitCode(1)
        }
        if format == .text { Output.line("ok\(data)") }
    }

    private func emit(_ report: CheckReport) {
        switch format {
        case .text: for line in report.text { Output.line(line) }
        case .json: Output.outLine(report.json)
        }
    }

    /// One response's sections, rows and findings (its survey added to `survey`).
    private func compile(
        _ read: Result<NamedInput, InputError>, with compiler: LayoutCompiler, app: ClientRenderers?,
        into survey: inout ResponseSurvey
    ) -> CheckReport.Response {
        let inspected: InspectedResponse
        switch InspectedResponse.compile(read, with: compiler) {
        case .success(let r): inspected = r
        case .failure(let e):
            return CheckReport.Response(
                file: e.name, sections: [],
                findings: [.init(severity: "error", code: e.code, file: e.name, message: e.message)])
        }
        let (path, tree, record) = (inspected.name, inspected.tree, inspected.record)
        survey.add(record, tree: tree)
        var response = CheckReport.response(record, file: path)
        if let app {
            let drawn = app.findings(record)
            response.findings += drawn.findings.map { CheckReport.responseFinding($0, file: path) }
            response.client = .init(
                name: app.name, mapped: drawn.mapped, fallback: drawn.fallback, missing: drawn.missing)
        }
        return response
    }
}

extension CheckCommand: FileListCommand {
    static let positionalsBeforeFiles = 1  // the config, unless --config gives it
    var files: [String] {
        get { paths }
        set { paths = newValue }
    }
}
