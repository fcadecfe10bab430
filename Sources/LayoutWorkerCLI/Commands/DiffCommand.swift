import ArgumentParser
import AttributeCarrying
import LayoutCompiler
import LayoutDiff
import LayoutJSON
import LayoutKit
import LayoutRecord

/// `layout-worker diff`: the change set between two layout records (or two responses, compiled first).
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the change set that turns one layout record into another.",
        discussion: "OLD may be '-' for a change set from empty (a page's first layout)."
    )

    @Flag(name: .long, help: "The files are assembler responses: compile them first (with --config).") var responses =
        false
    @Option(name: .long, help: ArgumentHelp(DefaultMappingConfig.help + ", with --responses")) var config: String?
    @Option(name: .long, help: "Page key written into the change set.") var key: String?
    @Flag(name: .long, help: "Indent the change set.") var pretty = false
    @Flag(name: .long, help: "Print the change set's counts instead of the change set.") var summary = false
    @OptionGroup var limit: InputLimitOptions
    @OptionGroup var accept: AcceptCheckErrorsOption
    @Argument(help: "The previous record (or '-').") var old: String
    @Argument(help: "The new record.") var new: String

    func run() throws {
        let compiler =
            responses
            ? LayoutCompiler(
                config: try loadConfigToInspectOrExit(
                    DefaultMappingConfig.path(given: config), accepting: accept.accept),
                maxInputBytes: limit.maxInputBytes
            ) : nil
        func record(_ path: String) throws -> RecordOutline {
            let bytes = recordBytes(try readFileOrExit(path, maxBytes: limit.maxInputBytes))
            if let compiler {
                // The outline the compiler noted while writing: nothing is read back.
                switch compiler.compile(bytes, source: RecordSource(file: path)) {
                case .success(let c): return c.outline
                case .failure(let f):
                    Output.error("\(path): \(f)")
                    throw ExitCode(1)
                }
            }
            do {
                return try RecordOutline(bytes: bytes)
            } catch {
                Output.error("\(path): \(error)\(Self.responseHint(bytes))")
                throw ExitCode(1)
            }
        }
        let base = old == "-" ? nil : try record(old)
        let step = compiler.map { PageStep(for: $0) } ?? PageStep()
        let next = step.next(after: base, record: try record(new), key: key)
        let cs = next.changeSet
        if summary {
            let s = cs.summary
            Output.line(
                "sections: \(s.sectionInserts) inserted, \(s.sectionDeletes) deleted, \(s.sectionMoves) moved, \(s.sectionUpdates) updated, \(s.sectionPaths) with a new path"
            )
            Output.line(
                "rows: \(s.rowInserts) inserted, \(s.rowDeletes) deleted, \(s.rowMoves) moved, \(s.rowUpdates) updated")
            Output.line(
                "record members changed: \(s.recordMembers); lists replaced whole: \(s.replacedLists)\(s.replacedRecord ? "; record replaced" : "")"
            )
            Output.line("change set: \(cs.bytes.count) bytes; target: \(next.record.count) bytes")
        } else if pretty, let doc = try? JSONReader().read(cs.bytes) {
            Output.out(JSONPrettyPrinter.format(doc))
        } else {
            Output.out(cs.bytes + [0x0A])
        }
    }

    /// For a file that is not a record: when it is an assembler response (a root with a string `@type`), what to
    /// pass; else nothing.
    static func responseHint(_ bytes: [UInt8]) -> String {
        guard let document = try? JSONReader().read(bytes), let type = document.value(document.root, "@type"),
            document.kind(type) == .string
        else { return "" }
        return "; it is an assembler response: pass --responses to compile both files first "
            + "(layout-worker diff --responses OLD NEW)"
    }
}

/// `layout-worker apply`: the record a change set produces from its base (what a renderer does).
struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a change set to its base record and print the resulting record (hashes checked)."
    )

    @OptionGroup var limit: InputLimitOptions
    @Argument(help: "The base record ('-' for a change set from empty).") var base: String
    @Argument(
        help:
            "The change set; '-' reads change sets from stdin, one per line, and applies them in order (e.g. from `tail --key K --format value`)."
    ) var changeSet: String

    func run() throws {
        var record = base == "-" ? nil : recordBytes(try readFileOrExit(base, maxBytes: limit.maxInputBytes))
        if changeSet != "-" {
            let changes = try readFileOrExit(changeSet, maxBytes: limit.maxInputBytes)
            Output.out(try apply(changes, to: record, what: changeSet) + [0x0A])
            return
        }
        var line = 0
        while let text = readLine(strippingNewline: true) {
            line += 1
            guard !text.isEmpty else { continue }
            guard text.utf8.count <= limit.maxInputBytes else {
                Output.error("stdin:\(line): \(text.utf8.count) bytes, over --max-input-bytes \(limit.maxInputBytes)")
                throw ExitCode(1)
            }
            record = try apply(Array(text.utf8), to: record, what: "stdin:\(line)")
        }
        guard let record else {
            Output.error("stdin: no change set read (a page's change sets, one per line, oldest first)")
            throw ExitCode(1)
        }
        Output.out(record + [0x0A])
    }

    /// `changes` applied to `record`, or why not on stderr and exit 1.
    private func apply(_ changes: [UInt8], to record: [UInt8]?, what: String) throws -> [UInt8] {
        do {
            return try ChangeSetApplier().apply(changes, to: record)
        } catch {
            Output.error("\(what): \(error)")
            throw ExitCode(1)
        }
    }
}

/// The bytes of `path` (at most `maxBytes`, checked before reading), or the reason on stderr and exit status 1.
private func readFileOrExit(_ path: String, maxBytes: Int) throws -> [UInt8] {
    switch InputSource.file(path, maxBytes: maxBytes) {
    case .success(let input): return input.bytes
    case .failure(let e):
        Output.error("\(e.name): \(e.message)")
        throw ExitCode(1)
    }
}

/// A record as written to a file by `compile`, without the line end that is not part of it.
func recordBytes(_ file: [UInt8]) -> [UInt8] {
    var b = file
    while let last = b.last, last == 0x0A || last == 0x0D { b.removeLast() }
    return b
}
