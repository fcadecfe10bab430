public import Foundation
import Synchronization

/// The environment for a `layout-worker` child process: this process's, without any `LAYOUT_WORKER_*` variable
/// (the binary refuses names it does not know, such as the tests' own `LAYOUT_WORKER_TEST_BROKERS`, and a
/// developer's shell settings must not change a test), plus `settings`.
public func childEnvironment(_ settings: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LAYOUT_WORKER_") }.merging(settings) { $1 }
}

/// The built `layout-worker`: the debug build, or the release build when there is no debug one.
public var layoutWorkerBinary: String {
    let built = Fixtures.path(".build/debug/layout-worker")
    return FileManager.default.fileExists(atPath: built) ? built : Fixtures.path(".build/release/layout-worker")
}

/// A `layout-worker` process (not started): the debug build (the release build when there is no debug one), or
/// `binary`, run in `directory` (the repository) with `childEnvironment(environment)`. The one way tests start it.
public func layoutWorkerProcess(
    _ arguments: [String], environment: [String: String] = [:], binary: String? = nil,
    directory: URL = Fixtures.root
) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary ?? layoutWorkerBinary)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = childEnvironment(environment)
    return process
}

/// Runs `layout-worker` to the end with `stdin` as its input; returns status, stdout, stderr. With `interrupt`,
/// SIGINT is sent once that returns (it is given what the process has written to stderr so far, to wait on).
public func runCLI(
    _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], binary: String? = nil,
    directory: URL = Fixtures.root, interrupt: ((_ stderrSoFar: () -> String) throws -> Void)? = nil
) throws -> (status: Int32, out: String, err: String) {
    let process = layoutWorkerProcess(arguments, environment: environment, binary: binary, directory: directory)
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    feed(input, Data((stdin ?? "").utf8))
    // stderr is drained on a thread of its own: a child that fills it while stdout is read would wait forever.
    let errors = Mutex(Data())
    let drained = DispatchSemaphore(value: 0)
    Thread {
        let handle = err.fileHandleForReading
        while case let chunk = handle.availableData, !chunk.isEmpty { errors.withLock { $0.append(chunk) } }
        drained.signal()
    }.start()
    if let interrupt {
        do { try interrupt { String(decoding: errors.withLock { $0 }, as: UTF8.self) } } catch {
            kill(process.processIdentifier, SIGKILL)
            throw error
        }
        kill(process.processIdentifier, SIGINT)
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    drained.wait()
    let e = errors.withLock { $0 }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// Writes `data` to `pipe` and closes it, from a thread of its own: a child's output would fill its pipe while a
/// large input is still being written, and both would wait.
public func feed(_ pipe: Pipe, _ data: Data) {
    Thread {
        try? pipe.fileHandleForWriting.write(contentsOf: data)
        try? pipe.fileHandleForWriting.close()
    }.start()
}

/// What `tool` (a path, or a name looked up on PATH) writes to standard output given `input` on standard input, and
/// its exit status: `gzip -dc`, `sha256sum`, a Python script.
public func piped(_ input: Data, through tool: String, _ arguments: [String] = []) throws -> (
    output: Data, status: Int32
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool.hasPrefix("/") ? tool : "/usr/bin/env")
    process.arguments = tool.hasPrefix("/") ? arguments : [tool] + arguments
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    feed(stdin, input)
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (output, process.terminationStatus)
}
