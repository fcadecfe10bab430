import ContentTree
import Foundation
import LayoutCompiler
import LayoutRecord
import Mapping

/// What `layout-worker check` found: the config's findings, and each response's sections and rows with their
/// resolution and findings. Printed as text, or as one JSON document (`--format json`, described by
/// `schemas/check-report.schema.json`) for CI.
struct CheckReport: Encodable {
    /// One finding: how bad, its code, where (a config finding's file, line and column; a response finding's file
    /// and tree path) and why.
    struct Finding: Encodable, Equatable {
        var severity: String
        var code: String
        var file: String
        var line: Int?
        var column: Int?
        var path: String?
        var message: String
        /// True for a problem of the response's own data (`DiagnosticCode.isResponseData`), not the config's.
        var data: Bool?
    }

    struct Row: Encodable {
        var index: Int
        var id: String
        var renderer: String?
    }

    struct View: Encodable {
        var kind: String
        var renderer: String?
    }

    struct Section: Encodable {
        var index: Int
        var id: String
        var type: String
        var adaptor: String
        var visible: Bool
        var supplementary: [View]
        var placeholder: View?
        var rows: [Row]
    }

    /// What one app version (`--client`) makes of a response's rows.
    struct Client: Encodable {
        var name: String
        /// Rows drawn by their own renderer, by a fallback, and by none the app has.
        var mapped: Int
        var fallback: Int
        var missing: Int
    }

    struct Response: Encodable {
        var file: String
        var sections: [Section]
        var findings: [Finding]
        var client: Client?
    }

    /// The report's format version (the schema's `version`).
    var version = 1
    var config: String
    /// No finding at or above the failing severity.
    var ok = true
    /// Findings by severity, config and responses together.
    var counts: [String: Int] = ["error": 0, "warning": 0, "info": 0]
    /// Of those, the responses' own data problems by severity: they fail the check only with `--fail-on-data`.
    var dataCounts: [String: Int] = ["error": 0, "warning": 0, "info": 0]
    var findings: [Finding] = []
    var responses: [Response] = []

    init(config: String) { self.config = config }

    /// A finding about the config (its path is `file:line:column` or `file`).
    static func configFinding(_ d: Diagnostic) -> Finding {
        var f = Finding(severity: d.severity.rawValue, code: d.code, file: d.path, message: d.message)
        let parts = d.path.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) {
            f.file = parts.dropLast(2).joined(separator: ":")
            (f.line, f.column) = (line, column)
        }
        return f
    }

    /// A finding about the response in `file` (its path is a tree path).
    static func responseFinding(_ d: Diagnostic, file: String) -> Finding {
        Finding(
            severity: d.severity.rawValue, code: d.code, file: file, path: d.path, message: d.message,
            data: DiagnosticCode(rawValue: d.code)?.isResponseData == true ? true : nil)
    }

    /// A response compiled to `record`.
    static func response(_ record: LayoutRecord, file: String) -> Response {
        Response(
            file: file,
            sections: record.sections.map { section in
                Section(
                    index: section.index, id: section.id, type: section.type, adaptor: section.adaptor,
                    visible: section.visible,
                    supplementary: section.supplementary.map { View(kind: $0.kind, renderer: $0.renderer) },
                    placeholder: section.placeholder.map { View(kind: $0.kind.rawValue, renderer: $0.renderer) },
                    rows: section.rows.enumerated().map {
                        Row(index: $0.offset, id: $0.element.id, renderer: $0.element.renderer)
                    })
            },
            findings: record.diagnostics.map { responseFinding($0, file: file) })
    }

    /// Counts every finding and decides `ok`: no finding at `failOn` or worse, the responses' own data problems
    /// left out unless `failOnData`.
    mutating func tally(failOn: Diagnostic.Severity, failOnData: Bool = false) {
        counts = ["error": 0, "warning": 0, "info": 0]
        dataCounts = counts
        for f in findings + responses.flatMap(\.findings) {
            counts[f.severity, default: 0] += 1
            if f.data == true { dataCounts[f.severity, default: 0] += 1 }
        }
        ok = failing(at: failOn, failOnData: failOnData) == 0
    }

    /// How many findings at `failOn` or worse fail the check (data problems only with `failOnData`).
    func failing(at failOn: Diagnostic.Severity, failOnData: Bool) -> Int {
        Diagnostic.Severity.allCases.filter { $0 >= failOn }.reduce(0) {
            $0 + counts[$1.rawValue, default: 0] - (failOnData ? 0 : dataCounts[$1.rawValue, default: 0])
        }
    }

    /// The responses' data problems, all severities.
    var dataProblems: Int { dataCounts.values.reduce(0, +) }

    /// The report as `check` prints it without `--format json`.
    var text: [String] {
        var lines = findings.map(Self.line)
        for r in responses {
            let rows = r.sections.reduce(0) { $0 + $1.rows.count }
            lines.append("\(r.file): \(r.sections.count) sections, \(rows) rows")
            for s in r.sections {
                lines.append("  [\(s.index)] \(s.id) \(s.type) → \(s.adaptor)\(s.visible ? "" : " (not visible)")")
                for v in s.supplementary { lines.append("      \(v.kind) → \(v.renderer ?? "UNRESOLVED")") }
                if let p = s.placeholder { lines.append("      placeholder \(p.kind) → \(p.renderer ?? "UNRESOLVED")") }
                for row in s.rows {
                    lines.append("      row \(row.index) id=\(row.id) → \(row.renderer ?? "UNRESOLVED")")
                }
            }
            lines += r.findings.map { "  " + Self.line($0) }
            if let c = r.client {
                lines.append(
                    "  \(c.name): \(c.mapped) rows drawn as mapped, \(c.fallback) with a fallback, \(c.missing) by no renderer it has"
                )
            }
        }
        return lines
    }

    private static func line(_ f: Finding) -> String {
        let place = f.path.map { $0.isEmpty ? "$" : $0 } ?? f.line.map { "\(f.file):\($0):\(f.column ?? 0)" } ?? f.file
        return "\(f.data == true ? "data " : "")\(f.severity) [\(f.code)] \(place): \(f.message)"
    }

    /// The report as one JSON document (keys sorted: stable for diffs).
    var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8))
    }
}
