import Foundation
import FuzzSupport
import LayoutCompiler
import LayoutJSON
import Mapping

/// The whole compile with the default config: any bytes give a record (that parses) or a failure, never a crash.
nonisolated(unsafe) let compiler: LayoutCompiler = {
    // The harness needs the config before libFuzzer starts calling the C entry point, which cannot capture it.
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/default.yaml").path
    let yaml = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    guard case .success(let config) = MappingConfigLoader().load(yaml: yaml, origin: path) else { fatalError("cannot load \(path)") }
    return LayoutCompiler(config: config, maxInputBytes: 1 << 20)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    if case .success(let compiled) = compiler.compile(fuzzBytes(data, size)) {
        precondition((try? JSONReader().read(compiled.bytes)) != nil, "compiled record is not JSON")
    }
    return 0
}

_ = compiler
runFuzzer(LLVMFuzzerTestOneInput)
