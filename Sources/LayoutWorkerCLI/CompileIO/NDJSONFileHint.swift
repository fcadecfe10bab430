import LayoutJSON

/// What a file given as one response says when it holds one response a line (NDJSON): its first value ends, then a
/// line break, then the next value. Files are read whole; stdin is read a line at a time, so the advice is to pipe
/// the file there.
enum NDJSONFileHint {
    /// Whether `bytes`, which failed to parse for `reason` at `offset`, hold JSON values one a line.
    static func holdsOneValueALine(_ bytes: [UInt8], reason: JSONSyntaxError.Reason?, offset: Int?) -> Bool {
        guard reason == .trailingCharacters, let offset, offset <= bytes.count else { return false }
        let space: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        // The blank between the first value and what follows it, wherever in it the offset points.
        var start = offset, end = offset
        while start > 0 && space.contains(bytes[start - 1]) { start -= 1 }
        while end < bytes.count && space.contains(bytes[end]) { end += 1 }
        return end < bytes.count && bytes[end] == UInt8(ascii: "{") && bytes[start..<end].contains(UInt8(ascii: "\n"))
    }

    /// The sentence to add to the error for file `name`, read by `command` (`compile < FILE`, `check CONFIG - <
    /// FILE`).
    static func advice(_ name: String, pipedTo command: String) -> String {
        "; \(name) holds one response a line (NDJSON), and a file is read as one response: pipe it on stdin (layout-worker \(command) < \(name))"
    }
}
