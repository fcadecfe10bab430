import ArgumentParser
import Testing

@testable import LayoutWorkerCLI

/// `FileList` parses a command line exactly as ArgumentParser alone does, wherever the options stand.
@Suite struct FileListTests {
    /// What a parsed `compile` or `check` holds, to compare.
    static func fields(_ command: any ParsableCommand) -> String {
        switch command {
        case let c as CompileCommand:
            "compile config=\(c.config ?? "-") pretty=\(c.pretty) max=\(c.limit.maxInputBytes) files=\(c.files)"
        case let c as CheckCommand: "check config=\(c.config ?? "-") files=\(c.paths) max=\(c.limit.maxInputBytes)"
        default: "\(type(of: command))"
        }
    }

    static let lines: [[String]] = [
        ["compile"],
        ["compile", "-"],
        ["compile", "a.json"],
        ["compile", "a.json", "b.json", "c.json"],
        ["compile", "--config", "x.yaml", "a.json", "b.json", "c.json"],
        ["compile", "--config=x.yaml", "a.json", "b.json"],
        ["compile", "--pretty", "a.json", "b.json", "c.json"],
        ["compile", "a.json", "--pretty", "b.json", "--config", "x.yaml", "c.json", "d.json"],
        ["compile", "a.json", "b.json", "--max-input-bytes", "100", "--pretty"],
        ["compile", "--config", "x.yaml", "--", "-odd.json", "b.json", "c.json"],
        ["compile", "--config", "x.yaml", "a.json", "-", "b.json"],
        ["check", "c.yaml"],
        ["check", "c.yaml", "a.json", "b.json", "c.json"],
        ["check", "--max-input-bytes", "9", "c.yaml", "a.json", "b.json"],
        ["check", "c.yaml", "--max-input-bytes", "9", "a.json", "b.json", "c.json"],
        ["check", "--config", "c.yaml", "a.json", "b.json", "c.json"],
        ["check", "a.json", "--config", "c.yaml", "b.json"],
        ["diff", "a.json", "b.json"],
    ]

    @Test(arguments: lines) func parsesAsArgumentParserAlone(_ line: [String]) throws {
        let alone = try LayoutWorkerCommand.parseAsRoot(line)
        let split = try FileList.parse(LayoutWorkerCommand.self, line)
        #expect(Self.fields(split) == Self.fields(alone))
    }

    /// Errors are ArgumentParser's: an unknown option before the list, a missing option value.
    @Test(arguments: [
        ["compile", "--nope", "a.json", "b.json", "c.json"], ["compile", "a.json", "b.json", "--config"],
    ])
    func errorsStayArgumentParsers(_ line: [String]) {
        #expect(throws: (any Error).self) { try FileList.parse(LayoutWorkerCommand.self, line) }
    }

    /// Only the tail after the last option and its possible value (and the positionals before the list) is cut.
    @Test func theCutKeepsWhatCouldBeAnOptionsValue() {
        #expect(FileList.cut(["a", "b", "c"], positionalsBefore: 0) == 1)
        #expect(FileList.cut(["a", "b", "c"], positionalsBefore: 1) == 2)
        #expect(FileList.cut(["--config", "x", "a", "b"], positionalsBefore: 0) == 2)
        #expect(FileList.cut(["--pretty", "a", "b", "c"], positionalsBefore: 0) == 2)
        #expect(FileList.cut(["a", "-", "b"], positionalsBefore: 0) == 1)
        #expect(FileList.cut(["a", "b", "--pretty"], positionalsBefore: 0) == 3)
        #expect(FileList.cut([], positionalsBefore: 1) == 0)
    }
}
