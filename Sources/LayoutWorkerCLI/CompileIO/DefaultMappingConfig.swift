import ArgumentParser
import Foundation
import LayoutCompiler
import Mapping
import MappingFiles
import Serve

/// Where a command finds its mapping config when `--config` (or `LAYOUT_WORKER_CONFIG`) is not given: the first of
/// `config/default.yaml` under the working directory, beside the installed binary (`../share/layout-worker/` or,
/// for a build in the repository, `../../config/`), and `/etc/layout-worker/default.yaml` (the container image).
enum DefaultMappingConfig {
    /// Where the default is looked for, as every command's help says it (`candidates` in order).
    static let places = "config/default.yaml here, beside the binary, or in /etc/layout-worker"
    /// `--config`'s help in the commands that read no other settings (`compile`, `explain`, `diff`).
    static let help = "Mapping config (YAML; default: LAYOUT_WORKER_CONFIG, else \(places))"

    static func candidates(executable: String? = Bundle.main.executablePath) -> [String] {
        var out = [FileManager.default.currentDirectoryPath + "/config/default.yaml"]
        if let executable {
            // The binary as invoked and as resolved (`.build/debug` is a link into `.build/<triple>/debug`).
            let url = URL(fileURLWithPath: executable)
            for (bin, up) in [
                (url.deletingLastPathComponent(), "../../"),
                (url.resolvingSymlinksInPath().deletingLastPathComponent(), "../../../"),
            ] {
                out.append(bin.appendingPathComponent("../share/layout-worker/default.yaml").standardized.path)
                out.append(bin.appendingPathComponent(up + "config/default.yaml").standardized.path)
            }
        }
        out.append("/etc/layout-worker/default.yaml")
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    /// The config a command reads: `given` (its `--config`), else `LAYOUT_WORKER_CONFIG`, else the default (`path()`).
    static func path(
        given: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        if let given { return given }
        if let named = environment[SettingTable.config.variable], !named.isEmpty { return named }
        return try path()
    }

    /// The path to use, or where it looked on stderr and exit 2 (no usable config, as for a config that does not
    /// load).
    static func path() throws -> String {
        let places = candidates()
        if let found = places.first(where: { FileManager.default.isReadableFile(atPath: $0) }) { return found }
        Output.error(
            "no mapping config given and no default found; looked in: \(places.joined(separator: ", ")) "
                + "(none exists or is readable). Pass --config FILE (config/default.yaml of the release maps the stock cartridges)."
        )
        throw ExitCode(2)
    }
}

/// The config at `path` as every command takes it (checked: any error finding refuses it, as `check` would), or
/// every error on stderr, what to do next, and exit 2. `acceptable`: the command takes `--accept-check-errors`, so
/// the advice names it (a command that does not take it never suggests it).
func loadCheckedConfigOrExit(_ path: String, acceptable: Bool = false) throws -> CheckedMappingConfig {
    switch CheckedMappingConfig.load(path) {
    case .success(let c): return c
    case .failure(let e):
        for d in e.diagnostics { Output.error(d.description) }
        Output.error(
            "\(path): not used: fix the findings above (`layout-worker check \(path)` lists them all, with responses)"
                + (acceptable ? ", or pass --accept-check-errors to use it anyway and see what it does" : ""))
        throw ExitCode(2)
    }
}

/// `--accept-check-errors`, for the commands that show what a config does (`compile`, `diff`, `explain`,
/// `preview`): use a config `check` refuses (an ambiguity, say) to look at its effect. Without it they refuse such
/// a config as `serve` and `replay` do.
struct AcceptCheckErrorsOption: ParsableArguments {
    @Flag(
        name: .customLong("accept-check-errors"),
        help: "Use a config even when check finds an error in it (to see what it does); serve and replay never do.")
    var accept = false
}

/// The config at `path` as the commands that show what a config does take it: one that does not load, or that
/// `check` refuses, is every error on stderr and exit 2, as for `serve` and `replay`; with `accepting`, a config
/// `check` refuses is used, its findings on stderr and a line saying so.
func loadConfigToInspectOrExit(_ path: String, accepting: Bool) throws -> MappingConfig {
    guard accepting else { return try loadCheckedConfigOrExit(path, acceptable: true).config }
    switch CheckedMappingConfig.load(path, acceptingErrors: true) {
    case .failure(let e):
        for d in e.diagnostics { Output.error(d.description) }
        throw ExitCode(2)
    case .success(let checked):
        for d in checked.acceptedErrors { Output.error(d.description) }
        if !checked.acceptedErrors.isEmpty {
            Output.error("\(path): used as it is (--accept-check-errors); serve and replay will not take it")
        }
        return checked.config
    }
}
