import Foundation
import TestSupport

/// The environment for a `layout-worker` child process: this process's, without any `LAYOUT_WORKER_*` variable
/// (the binary refuses names it does not know, such as the tests' own `LAYOUT_WORKER_TEST_BROKERS`, and a
/// developer's shell settings must not change a test), plus `settings`.
func childEnvironment(_ settings: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LAYOUT_WORKER_") }.merging(settings) { $1 }
}

/// A `layout-worker` process (not started) run from the repository with `childEnvironment(environment)`.
func layoutWorkerProcess(_ arguments: [String], environment: [String: String] = [:]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Fixtures.path(".build/debug/layout-worker"))
    process.arguments = arguments
    process.currentDirectoryURL = Fixtures.root
    process.environment = childEnvironment(environment)
    return process
}

/// Runs `layout-worker` to the end; returns status, stdout, stderr. With `interrupt`, SIGINT is sent once that returns.
func runCLI(_ arguments: [String], environment: [String: String] = [:], interrupt: (() throws -> Void)? = nil) throws
    -> (status: Int32, out: String, err: String)
{
    let process = layoutWorkerProcess(arguments, environment: environment)
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    if let interrupt {
        do { try interrupt() } catch { kill(process.processIdentifier, SIGKILL); throw error }
        kill(process.processIdentifier, SIGINT)
    }
    let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}
