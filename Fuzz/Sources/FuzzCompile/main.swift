import AttributeCarrying
import Foundation
import FuzzSupport
import LayoutCompiler
import LayoutDiff
import LayoutJSON
import LayoutRecord
import Mapping

/// The whole compile with the default config: any bytes give a record (that parses) or a failure, never a crash.
/// Each record also has its carried attributes taken over from the previous input's record and from itself, so
/// numbers the fuzzer puts into paging fields reach the carry's arithmetic from both sides.
let compiler: LayoutCompiler = {
    // The harness needs the config before libFuzzer starts calling the C entry point, which cannot capture it.
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/default.yaml").path
    let yaml = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    guard case .success(let config) = MappingConfigLoader().load(yaml: yaml, origin: path) else {
        fatalError("cannot load \(path)")
    }
    return LayoutCompiler(config: config, maxInputBytes: 1 << 20)
}()

/// The previous input's record (libFuzzer calls the entry point on one thread).
nonisolated(unsafe) var previous: RecordOutline?

// swift-format-ignore: AlwaysUseLowerCamelCase
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    if case .success(let compiled) = compiler.compile(fuzzBytes(data, size)) {
        precondition((try? JSONReader().read(compiled.bytes)) != nil, "compiled record is not JSON")
        let record = compiled.outline
        precondition((try? RecordOutline(bytes: compiled.bytes)) == record, "the written outline is not the one read")
        let carrier = AttributeCarrier(registry: compiler.registry)
        for carried in [
            carrier.carry(into: record, from: previous ?? record),
            previous.flatMap {
                carrier.carry(into: $0, from: record)
            },
        ] {
            guard let carried else { continue }
            precondition((try? RecordOutline(bytes: carried.bytes)) == carried, "a carried outline moved wrong")
        }
        previous = record
    }
    return 0
}

_ = compiler
runFuzzer(LLVMFuzzerTestOneInput)
