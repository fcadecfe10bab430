import ArgumentParser

/// What `--format` takes in every command that prints a report: `text` for people, `json` for programs (one
/// document on stdout; `tail`, which prints a stream, writes one JSON object per message). The one machine-readable
/// output flag: no command has a `--json` of its own (`FormerNames` takes the old one as `--format json`).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
