import ContentTree
import FuzzSupport
import LayoutJSON

/// Building the content tree of any parsable input never crashes; paths and parents stay consistent.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let doc = try? JSONReader(maxDepth: 64).read(fuzzBytes(data, size)) else { return 0 }
    let tree = ContentTree(document: doc)
    for (n, item) in tree.items.enumerated() {
        precondition(item.parent.map { $0 < n } ?? true, "parent after child")
        precondition(tree.indexOfContentItem(atPath: item.path) != nil)
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
