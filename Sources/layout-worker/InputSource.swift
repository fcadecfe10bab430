import ArgumentParser
import Foundation
import LayoutCompiler
import Mapping

/// One input to compile: a name for messages and its bytes.
struct NamedInput {
    let name: String
    let bytes: [UInt8]
}

/// Reads compile inputs: whole files, or NDJSON lines from standard input.
enum InputSource {
    /// Reads `path`; nil with a message when it cannot be read.
    static func file(_ path: String) -> Result<NamedInput, InputError> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(InputError(name: path, message: "cannot read the file")) }
        return .success(NamedInput(name: path, bytes: [UInt8](data)))
    }

    /// Splits standard input into NDJSON lines (empty lines skipped), named `stdin:LINE`.
    static func standardInputLines() -> [NamedInput] {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var inputs: [NamedInput] = []
        var line = 1
        var start = data.startIndex
        for i in data.indices where data[i] == 0x0A {
            if i > start { inputs.append(NamedInput(name: "stdin:\(line)", bytes: [UInt8](data[start..<i]))) }
            line += 1
            start = i + 1
        }
        if start < data.endIndex { inputs.append(NamedInput(name: "stdin:\(line)", bytes: [UInt8](data[start..<data.endIndex]))) }
        return inputs.filter { !$0.bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
    }
}

/// Loads a mapping config, printing every error on stderr and exiting with status 2 when it is unusable.
func loadMappingConfigOrExit(_ path: String) throws -> MappingConfig {
    switch ConfigFile.load(path) {
    case .success(let c): return c
    case .failure(let e):
        for d in e.diagnostics { Output.error(d.description) }
        throw ExitCode(2)
    }
}

/// An input that could not be read.
struct InputError: Error {
    let name: String
    let message: String
}

/// Writing to standard output and standard error (whole buffers, retried on short writes).
enum Output {
    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var done = 0
            while done < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n <= 0 { if errno == EINTR { continue } else { return } }
                done += n
            }
        }
    }

    static func out(_ bytes: [UInt8]) { write(1, bytes) }

    static func line(_ text: String) { write(1, Array(text.utf8) + [0x0A]) }

    static func error(_ text: String) { write(2, Array(("layout-worker: " + text + "\n").utf8)) }
}
