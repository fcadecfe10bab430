/// Byte equality of two slices (possibly of different buffers).
@inline(__always) func sameBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    let n = a.count
    guard n == b.count else { return false }
    return a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in n == 0 || sameBytes(pa.baseAddress!, pb.baseAddress!, n) } }
}

/// Byte equality of `n` bytes at two addresses.
@inline(__always) func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
    var i = 0
    while i + 8 <= n {
        if ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
        i += 8
    }
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
