import CZlib

/// gzip (RFC 1952) of a response body, for clients that accept it.
enum Gzip {
    /// The gzip stream of `bytes`, or nil if zlib refuses (never for valid input and memory).
    static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // 15 window bits + 16: a gzip header and trailer instead of zlib's.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let result: Int32 = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        out.removeLast(out.count - Int(stream.total_out))
        return out
    }
}
