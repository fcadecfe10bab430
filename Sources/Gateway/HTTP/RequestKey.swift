import NIOHTTP1

/// A page key from a request path: URL-decoded exactly once, not empty, valid UTF-8, at most so many bytes.
enum RequestKey {
    struct Problem: Error {
        let status: HTTPResponseStatus
        let code: String
        let message: String
    }

    static func decode(_ raw: Substring, maxBytes: Int) -> Result<String, Problem> {
        // Made only when refused: every GET of a record comes this way.
        func tooLong() -> Problem {
            Problem(status: .uriTooLong, code: "key-too-long", message: "keys are at most \(maxBytes) bytes")
        }
        // Checked before decoding too: a huge path is refused without work.
        guard raw.utf8.count <= maxBytes * 3 else { return .failure(tooLong()) }
        let key: String
        if raw.utf8.withContiguousStorageIfAvailable({ $0.contains(UInt8(ascii: "%")) })
            ?? raw.utf8.contains(UInt8(ascii: "%"))
        {
            switch percentDecoded(raw.utf8) {
            case .success(let k): key = k
            case .failure(let problem): return .failure(problem)
            }
        } else {
            key = String(raw)  // nothing to decode, and the path is UTF-8 already
        }
        guard !key.isEmpty else {
            return .failure(Problem(status: .notFound, code: "bad-key", message: "an empty key"))
        }
        guard key.utf8.count <= maxBytes else { return .failure(tooLong()) }
        return .success(key)
    }

    /// `utf8` with each `%XX` replaced by its byte, as UTF-8.
    private static func percentDecoded(_ utf8: Substring.UTF8View) -> Result<String, Problem> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var i = utf8.startIndex
        while i < utf8.endIndex {
            let b = utf8[i]
            if b == UInt8(ascii: "%") {
                let h = utf8.index(after: i)
                guard h < utf8.endIndex, utf8.index(after: h) < utf8.endIndex,
                    let high = hex(utf8[h]), let low = hex(utf8[utf8.index(after: h)])
                else {
                    return .failure(
                        Problem(status: .badRequest, code: "bad-key", message: "a % not followed by two hex digits"))
                }
                bytes.append(high << 4 | low)
                i = utf8.index(h, offsetBy: 2)
            } else {
                bytes.append(b)
                i = utf8.index(after: i)
            }
        }
        guard let key = String(validating: bytes, as: UTF8.self) else {
            return .failure(Problem(status: .badRequest, code: "bad-key", message: "the key is not UTF-8"))
        }
        return .success(key)
    }

    /// A hex digit's value.
    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
