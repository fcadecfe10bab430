import ArgumentParser

/// A command whose last argument is a list of files, which a shell glob can make thousands long
/// (`layout-worker compile pages/*.json`).
///
/// ArgumentParser stores a repeated positional value one value at a time, each time copying the values before it
/// and merging their origins, so its cost grows with the square of the list: 1,000 files took 22% of a `compile`
/// run's CPU time and 3,000 took 0.45 s before the first page. `FileList.parse` hands ArgumentParser the command
/// line up to the part that can only be files, and appends that part to the list itself.
protocol FileListCommand: ParsableCommand {
    /// Positional arguments the command takes before the list.
    static var positionalsBeforeFiles: Int { get }
    /// The list.
    var files: [String] { get set }
}

enum FileList {
    /// Where the part of `arguments` (what follows a command's name) that can only be files begins: after the last
    /// argument that starts with "-" (other than "-" itself), the one after it (that option's value, or a file)
    /// and the command's positionals before the list. Everything before it is left to ArgumentParser, so an option
    /// anywhere still means what it means; in the worst case the cut keeps everything.
    static func cut(_ arguments: [String], positionalsBefore: Int) -> Int {
        let lastOption = arguments.lastIndex { $0.count > 1 && $0.hasPrefix("-") } ?? -1
        return min(arguments.count, lastOption + 2 + positionalsBefore)
    }

    /// The command `arguments` (the whole command line after the executable's name) name, parsed, with a
    /// subcommand's file list taken apart from ArgumentParser; a parse error as ArgumentParser reports it.
    static func parse<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) throws -> any ParsableCommand {
        guard let name = arguments.first,
            let command = root.configuration.subcommands.first(where: { $0.configuration.commandName == name }),
            let listed = command as? any FileListCommand.Type
        else { return try root.parseAsRoot(arguments) }
        let rest = Array(arguments.dropFirst())
        let at = cut(rest, positionalsBefore: listed.positionalsBeforeFiles)
        let parsed = try root.parseAsRoot([name] + rest[..<at])
        guard var withList = parsed as? any FileListCommand else { return parsed }
        withList.files += rest[at...]
        return withList
    }
}
