public import ArgumentParser
import Foundation
import Ops
import Serve

/// The `layout-worker` command line: compile assembler responses into layout records, check mapping configs, run
/// the Kafka worker. A program that embeds it (to bootstrap a tracer, say) runs `await LayoutWorkerCommand.main(nil)`
/// (with the explicit `nil`, which picks the asynchronous entry point).
public struct LayoutWorkerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "layout-worker",
        abstract: "Compiles Endeca Experience Manager assembler responses into layout records.",
        version: WorkerVersion.current,
        subcommands: [
            CompileCommand.self, CheckCommand.self, ExplainCommand.self, DiffCommand.self, ApplyCommand.self,
            ServeCommand.self,
            ReplayCommand.self, PreviewCommand.self, GatewayCommand.self,
            OffsetsCommand.self, CreateTopicsCommand.self, ProduceCommand.self, TailCommand.self,
        ]
    )

    public init() {}

    /// Parses `arguments` (the process's when nil) and runs the command they name, as ArgumentParser's own `main`
    /// does, with a long file list taken apart from ArgumentParser (`FileList`), old flag names under their new ones
    /// and an unknown flag answered with the nearest known one (`FormerNames`).
    public static func main(_ arguments: [String]?) async {
        var (rewritten, used) = FormerNames.rewrite(arguments ?? Array(CommandLine.arguments.dropFirst()))
        let parsed: any ParsableCommand
        do {
            // Options from the environment, the same rule for every command (`EnvironmentOptions`).
            let environment = ProcessInfo.processInfo.environment
            try EnvironmentOptions.refuseUnknown(environment)
            rewritten = try EnvironmentOptions.apply(to: rewritten, environment: environment)
        } catch {
            exitWithUsage(error, of: EnvironmentOptions.command(of: rewritten) ?? Self.self)
        }
        do {
            parsed = try FileList.parse(Self.self, rewritten)
        } catch {
            guard let message = FormerNames.unknownOptionMessage(fullMessage(for: error), arguments: rewritten) else {
                exit(withError: error)
            }
            Output.write(2, Array((message + "\n").utf8))
            exit(withError: exitCode(for: error))
        }
        do {
            try await FormerNames.$flagsUsed.withValue(used) {
                var command = parsed
                if var asynchronous = command as? any AsyncParsableCommand {
                    try await asynchronous.run()
                } else {
                    try command.run()
                }
            }
        } catch {
            guard let message = ConnectionOptions.unreachableMessage(error, of: parsed) else {
                guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
                exitWithUsage(error, of: type(of: parsed))
            }
            Output.write(2, Array(("Error: " + message + "\n").utf8))
            exit(withError: ExitCode.failure)
        }
    }

    /// Exits 64 for a usage error found outside ArgumentParser's parse: the message and `command`'s own usage, not
    /// the top level's.
    private static func exitWithUsage(_ error: any Error, of command: any ParsableCommand.Type) -> Never {
        let usage =
            helpMessage(for: command, columns: 1_000).split(separator: "\n")
            .first { $0.hasPrefix("USAGE: ") }.map { $0.dropFirst("USAGE: ".count) } ?? ""
        let name = ["layout-worker", command.configuration.commandName].compactMap { $0 }.joined(separator: " ")
        Output.write(
            2,
            Array(
                "Error: \(message(for: error))\nUsage: \(usage)\n  See '\(name) --help' for more information.\n".utf8))
        exit(withError: ExitCode.validationFailure)
    }
}
