import ArgumentParser

/// `--max-input-bytes` for the commands that read responses, records or change sets from files or standard input:
/// one declaration, one default (which the help shows).
struct InputLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("max-input-bytes"),
        help: "Inputs (files, or NDJSON lines on stdin) larger than this are refused before they are read.")
    var maxInputBytes = InputSource.defaultMaxBytes
}
