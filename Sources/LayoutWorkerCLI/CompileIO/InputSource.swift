import Delivery
import Foundation
import LayoutCompiler

/// One input to compile: a name for messages and its bytes.
struct NamedInput {
    let name: String
    let bytes: [UInt8]
}

/// Reads compile inputs: whole files, or NDJSON lines from standard input; nothing larger than a limit is read.
enum InputSource {
    /// The default input limit: `serve --max-message-bytes`'s default, so no command takes what serve would refuse.
    static let defaultMaxBytes = DeliveryLimits().maxMessageBytes

    /// Reads `path` when it is at most `maxBytes` long (checked before reading, and while reading what is not a
    /// regular file: a pipe, or a file that grows).
    ///
    /// With `open`, `fstat` and `read` straight into the array the compiler takes: one lookup of the path, one
    /// copy of the bytes (the kernel's).
    static func file(_ path: String, maxBytes: Int) -> Result<NamedInput, InputError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(unreadable(path)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(unreadable(path)) }
        let regular = (info.st_mode & S_IFMT) == S_IFREG
        if regular && Int(info.st_size) > maxBytes {
            return .failure(tooLarge(path, "\(info.st_size) bytes", maxBytes))
        }
        // Never more than the limit plus one byte, which tells a file over the limit.
        let cap = maxBytes == .max ? maxBytes : maxBytes + 1
        var bytes: [UInt8] = []
        // A regular file is read whole by the first read, asking one byte more than its size: a short read of a
        // regular file is its end; a full one means it grew, and reading goes on.
        var chunk = regular ? min(cap - 1, Int(clamping: info.st_size)) + 1 : 64 * 1024
        while bytes.count < cap {
            let asked = min(chunk, cap - bytes.count)
            let n = readMore(fd, appendingTo: &bytes, count: asked)
            if n < 0 { return .failure(unreadable(path)) }
            if n == 0 || (regular && n < asked) { break }
            chunk = 64 * 1024
        }
        if bytes.count > maxBytes { return .failure(tooLarge(path, "more than \(maxBytes) bytes", maxBytes)) }
        return .success(NamedInput(name: path, bytes: bytes))
    }

    /// A file that cannot be read, with the system's reason (`cannot read the file (No such file or directory)`):
    /// every command words it so.
    static func unreadable(_ path: String, errno code: Int32 = errno) -> InputError {
        InputError(name: path, message: "cannot read the file (\(String(cString: strerror(code))))")
    }

    /// Reads up to `count` more bytes of `fd` onto the end of `bytes` (into its storage when it is empty); returns
    /// how many, 0 at the end, -1 on an error.
    private static func readMore(_ fd: Int32, appendingTo bytes: inout [UInt8], count: Int) -> Int {
        var got = -1
        let more = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            repeat { got = read(fd, buffer.baseAddress, count) } while got < 0 && errno == EINTR
            initialized = max(got, 0)
        }
        if bytes.isEmpty { bytes = more } else { bytes += more }
        return got
    }

    /// Calls `body` for each NDJSON line of standard input (named `stdin:LINE`; blank lines skipped), as it arrives;
    /// a line longer than `maxBytes` is reported and skipped without being kept.
    ///
    /// Reads with `read(2)` into a 1 MiB buffer of its own and finds line ends with `memchr`, so a line is copied
    /// once (from the buffer, or from the carried head of a line that spans reads) and no byte is looked at twice.
    static func forEachStandardInputLine(maxBytes: Int, fd: Int32 = 0, _ body: (Result<NamedInput, InputError>) -> Void)
    {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        // The head of a line that did not end within the previous reads.
        var carried: [UInt8] = []
        var number = 1
        var overlong = false
        func finish(_ tail: UnsafeBufferPointer<UInt8>) {
            if overlong || carried.count + tail.count > maxBytes {
                body(.failure(tooLarge("stdin:\(number)", "a line of more than \(maxBytes) bytes", maxBytes)))
            } else {
                // A line that spans reads is completed in `carried`, whose storage is kept for the next one.
                if !carried.isEmpty { carried.append(contentsOf: tail) }
                let line = carried.isEmpty ? Array(tail) : carried
                if line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                    body(.success(NamedInput(name: "stdin:\(number)", bytes: line)))
                }
            }
            carried.removeAll(keepingCapacity: true)
            overlong = false
            number += 1
        }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            buffer.withUnsafeBufferPointer { b in
                let base = b.baseAddress!
                var start = 0
                while start < n {
                    guard let found = memchr(base + start, 0x0A, n - start) else {
                        // No line end in the rest of this read: keep it (unless the line is already too long).
                        if !overlong {
                            if carried.count + (n - start) > maxBytes {
                                overlong = true
                                carried.removeAll()
                            } else {
                                carried.append(contentsOf: UnsafeBufferPointer(start: base + start, count: n - start))
                            }
                        }
                        return
                    }
                    let end = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
                    finish(UnsafeBufferPointer(start: base + start, count: end - start))
                    start = end + 1
                }
            }
        }
        if overlong || !carried.isEmpty { finish(UnsafeBufferPointer(start: nil, count: 0)) }
    }

    private static func tooLarge(_ name: String, _ size: String, _ limit: Int) -> InputError {
        InputError(
            name: name,
            message:
                "\(CompileFailure.Code.tooLarge.rawValue): \(size), larger than the limit of \(limit) bytes (--max-input-bytes); not parsed",
            code: CompileFailure.Code.tooLarge.rawValue)
    }
}
