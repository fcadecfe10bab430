/// A 64-bit hash of the `n` bytes at `p`, for short keys such as ids and type names: FNV-1a over 8-byte words, then mixed.
@inlinable
public func byteHash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    let raw = UnsafeRawPointer(p)
    var i = 0
    while i + 8 <= n {
        h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
        i += 8
    }
    while i < n {
        h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01B3
        i += 1
    }
    h ^= h >> 29
    h = h &* 0xBF58_476D_1CE4_E5B9
    return h ^ (h >> 32)
}
