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

    static func line(_ text: String) { write(1, Array(text.utf8) + [0x0A]) }

    static func error(_ text: String) { write(2, Array(("layout-worker: " + text + "\n").utf8)) }
}
