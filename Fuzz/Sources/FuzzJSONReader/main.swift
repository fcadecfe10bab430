import FuzzSupport
import LayoutJSON

/// The reader must return a tape or a syntax error for any bytes, never crash or hang; every accessor must hold up.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let doc = try? JSONReader(maxDepth: 64).read(fuzzBytes(data, size)) else { return 0 }
    for i in 0..<doc.nodes.count {
        switch doc.kind(i) {
        case .string: _ = doc.string(i)
        case .number: _ = (doc.int(i), doc.double(i))
        case .object: for (k, _) in doc.members(i) { _ = doc.string(k) }
        case .array: _ = Array(doc.elements(i))
        default: break
        }
    }
    _ = JSONPrettyPrinter.format(doc)
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
