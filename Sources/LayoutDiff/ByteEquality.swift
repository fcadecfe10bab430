import LayoutJSON

/// Byte equality of two slices (possibly of different buffers).
@inline(__always) func sameBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    let n = a.count
    guard n == b.count else { return false }
    return a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in n == 0 || memcmpEqual(pa.baseAddress!, pb.baseAddress!, n) } }
}
