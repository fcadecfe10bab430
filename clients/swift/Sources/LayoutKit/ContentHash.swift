/// XXH64 (seed 0) of a byte string, the content hash change sets use to name records; hex-encoded, 16 digits.
public struct ContentHash: Sendable, Hashable, CustomStringConvertible {
    public let value: UInt64

    public init(value: UInt64) { self.value = value }

    /// The hash of `bytes`.
    public init(of bytes: some Collection<UInt8>) {
        if let v = bytes.withContiguousStorageIfAvailable({ Self.xxh64(UnsafeRawBufferPointer($0)) }) {
            value = v
        } else {
            value = Array(bytes).withUnsafeBytes { Self.xxh64($0) }
        }
    }

    /// Parses 16 lowercase or uppercase hex digits.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 16, let v = UInt64(hex, radix: 16) else { return nil }
        value = v
    }

    public var description: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* p2, 31) &* p1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 {
        (acc ^ round(0, v)) &* p1 &+ p4
    }

    static func xxh64(_ b: UnsafeRawBufferPointer) -> UInt64 {
        let n = b.count
        var i = 0
        @inline(__always) func read64(_ at: Int) -> UInt64 {
            UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        @inline(__always) func read32(_ at: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        }
        var h: UInt64
        if n >= 32 {
            var v1 = p1 &+ p2, v2 = p2, v3: UInt64 = 0, v4 = 0 &- p1
            while i + 32 <= n {
                v1 = round(v1, read64(i))
                v2 = round(v2, read64(i + 8))
                v3 = round(v3, read64(i + 16))
                v4 = round(v4, read64(i + 24))
                i += 32
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(merge(merge(merge(h, v1), v2), v3), v4)
        } else {
            h = p5
        }
        h = h &+ UInt64(n)
        while i + 8 <= n {
            h = rotl(h ^ round(0, read64(i)), 27) &* p1 &+ p4
            i += 8
        }
        if i + 4 <= n {
            h = rotl(h ^ (read32(i) &* p1), 23) &* p2 &+ p3
            i += 4
        }
        while i < n {
            h = rotl(h ^ (UInt64(b[i]) &* p5), 11) &* p1
            i += 1
        }
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }
}
