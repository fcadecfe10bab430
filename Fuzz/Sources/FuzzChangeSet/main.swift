import Foundation
import FuzzSupport
import LayoutCompiler
import LayoutDiff
import LayoutKit
import LayoutRecord
import Mapping

/// Applying a change set (what a renderer does with untrusted bytes) to the compiled 45 KB sample: any bytes give a
/// record whose hash is the change set's target, or an error — never a crash.
let base: [UInt8] = {
    // The harness needs the base record before libFuzzer starts calling the C entry point, which cannot capture it.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let yaml = (try? String(contentsOf: root.appendingPathComponent("config/default.yaml"), encoding: .utf8)) ?? ""
    guard case .success(let config) = MappingConfigLoader().load(yaml: yaml, origin: "config/default.yaml"),
        let page = FileManager.default.contents(atPath: root.appendingPathComponent("samples/search-page.json").path),
        // The same record `layout-worker diff --responses samples/search-page.json …` starts from (the seeds).
        case .success(let compiled) = LayoutCompiler(config: config).compile(
            [UInt8](page), source: RecordSource(file: "samples/search-page.json"))
    else { fatalError("cannot compile the base record") }
    return compiled.bytes
}()

// swift-format-ignore: AlwaysUseLowerCamelCase
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    if let record = try? ChangeSetApplier().apply(fuzzBytes(data, size), to: base) {
        precondition(
            (try? RecordOutline(bytes: record)) != nil || record.first != UInt8(ascii: "{"),
            "applied record does not read back")
    }
    return 0
}

_ = base
runFuzzer(LLVMFuzzerTestOneInput)
