import Foundation

/// Writing to standard output and standard error (whole buffers, retried on short writes).
enum Output {
    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var done = 0
            while done < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n <= 0 { if errno == EINTR { continue } else { return } }
                done += n
            }
        }
    }

    static func out(_ bytes: [UInt8]) { write(1, bytes) }

    /// Writes `bytes` and a line end with one `writev(2)`, without copying `bytes` to append the line end.
    static func outLine(_ bytes: [UInt8]) {
        var newline = UInt8(0x0A)
        bytes.withUnsafeBytes { body in
            withUnsafeMutablePointer(to: &newline) { end in
                var parts = [
                    iovec(iov_base: UnsafeMutableRawPointer(mutating: body.baseAddress), iov_len: body.count),
                    iovec(iov_base: UnsafeMutableRawPointer(end), iov_len: 1),
                ]
                var first = 0
                while first < parts.count {
                    let n = parts.withUnsafeBufferPointer {
                        writev(1, $0.baseAddress! + first, Int32(parts.count - first))
                    }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return }
                    // A short write: skip what went out and write the rest.
                    var written = n
                    while first < parts.count && written >= parts[first].iov_len {
                        written -= parts[first].iov_len
                        first += 1
                    }
                    if first < parts.count {
                        parts[first].iov_base = parts[first].iov_base.map { $0 + written }
                        parts[first].iov_len -= written
                    }
                }
            }
        }
    }

    static func line(_ text: String) { write(1, Array(text.utf8) + [0x0A]) }

    static func error(_ text: String) { write(2, Array(("layout-worker: " + text + "\n").utf8)) }
}
