import ArgumentParser
import LayoutService

/// The `layout-worker` executable: compile assembler responses into layout records.
@main
struct LayoutWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout-worker",
        abstract: "Compiles Endeca Experience Manager assembler responses into layout records.",
        version: WorkerVersion.current,
        subcommands: [CompileCommand.self, CheckCommand.self, DiffCommand.self, ApplyCommand.self, ServeCommand.self, ReplayCommand.self, OffsetsCommand.self, CreateTopicsCommand.self, ProduceCommand.self, TailCommand.self]
    )
}
