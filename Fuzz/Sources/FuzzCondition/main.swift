import FuzzSupport
import LayoutJSON
import Mapping

/// Any text either compiles to a condition (which then evaluates, canonicalises and is analysed) or gives a located error.
let model = try! JSONReader().read(
    Array(#"{"@class":"a.B","label":"x","count":3,"attributes":{"k":["1","2"]},"n":null}"#.utf8))

// swift-format-ignore: AlwaysUseLowerCamelCase
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    do {
        let c = try Condition(text)
        _ = c.evaluate(ConditionContext(document: model, model: 0, row: 1, section: 2, sectionType: "T"))
        _ = c.canonical
    } catch {
        precondition(error.line >= 1 && error.column >= 1, "error without a location")
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
