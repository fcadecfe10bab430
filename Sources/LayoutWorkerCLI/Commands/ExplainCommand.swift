import ArgumentParser
import ContentTree
import LayoutCompiler
import LayoutJSON
import LayoutRecord
import Mapping

/// `layout-worker explain`: why a row of a response gets its renderer — the row's model, each level of its
/// renderer chain with every mapping tried and its condition's values, the default, the winner and the runner-up.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show how a row of a response finds its renderer: every level of its chain, every condition tried.",
        discussion: """
            --row SECTION/ROW: the section as `check` lists it (its index, e.g. 13, its id, or the path its \
            findings name, e.g. contents[0].MainContent[0].contents[2]) and the row (its index in the section, or its id), split \
            at the last '/'. Without --row, every row of the response.
            """)

    @Option(help: ArgumentHelp(DefaultMappingConfig.help)) var config: String?
    @Option(help: "The row, as SECTION/ROW (see below).") var row: String?
    @Argument(help: "The response.") var response: String
    @OptionGroup var limit: InputLimitOptions
    @OptionGroup var accept: AcceptCheckErrorsOption

    func run() throws {
        let mapping = try loadConfigToInspectOrExit(DefaultMappingConfig.path(given: config), accepting: accept.accept)
        let compiler = LayoutCompiler(config: mapping, maxInputBytes: limit.maxInputBytes)
        let record: LayoutRecord
        switch InspectedResponse.compile(InputSource.file(response, maxBytes: limit.maxInputBytes), with: compiler) {
        case .success(let r): record = r.record
        case .failure(let e):
            Output.error("\(e.name): \(e.code): \(e.message)")
            throw ExitCode(1)
        }
        let rows = try chosen(in: record)
        for (n, (section, index)) in rows.enumerated() {
            if n > 0 { Output.line("") }
            let context = ConditionContext(
                document: record.document, model: section.rows[index].model, row: index, section: section.index,
                sectionType: section.type)
            let explanation = RowExplanation(context, adaptor: section.adaptor, resolver: compiler.resolver)
            for line in Self.text(explanation, row: section.rows[index], index: index, of: section, config: mapping) {
                Output.line(line)
            }
        }
    }

    /// The rows `--row` names (every row without it), or a usage error that lists what there is.
    private func chosen(in record: LayoutRecord) throws -> [(LayoutSection, Int)] {
        guard let row else { return record.sections.flatMap { s in s.rows.indices.map { (s, $0) } } }
        guard let slash = row.lastIndex(of: "/") else {
            throw ValidationError("--row takes SECTION/ROW (e.g. 13/0, or a section id and a row id), not '\(row)'")
        }
        let (sectionName, rowName) = (String(row[..<slash]), String(row[row.index(after: slash)...]))
        guard
            let section = record.sections.first(where: { Int(sectionName) == $0.index })
                ?? record.sections.first(where: { $0.id == sectionName })
                ?? record.sections.first(where: { $0.head.path == sectionName })
        else {
            let withRows = record.sections.filter { !$0.rows.isEmpty }.map { "\($0.index) (\($0.id))" }
            throw ValidationError(
                "no section '\(sectionName)' in \(response); sections with rows: \(withRows.joined(separator: ", "))")
        }
        guard
            let index = Int(rowName).flatMap({ section.rows.indices.contains($0) ? $0 : nil })
                ?? section.rows.firstIndex(where: { $0.id == rowName })
        else {
            throw ValidationError(
                "no row '\(rowName)' in section \(section.index): it has \(section.rows.count) rows (0 to \(section.rows.count - 1)), ids \(section.rows.prefix(5).map(\.id).joined(separator: ", "))\(section.rows.count > 5 ? ", …" : "")"
            )
        }
        return [(section, index)]
    }

    /// The explanation as `explain` prints it: which row, then `RowExplanation.lines`.
    static func text(
        _ e: RowExplanation, row: LayoutRow, index: Int, of section: LayoutSection, config: MappingConfig
    ) -> [String] {
        ["row \(index) (id \(row.id)) of section \(section.index) \(section.id): \(section.type) → \(section.adaptor)"]
            + e.lines(origin: config.origin)
    }
}
