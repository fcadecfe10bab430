/// What to do about a YAML error, read from the config's text around the place the parser names: a tab in an
/// indentation, keys or list items out of line, a key given twice (pointed at its second copy, the one usually
/// added last).
enum YAMLErrorHint {
    /// The advice to append to a syntax error found at `line` (1-based) of `text`; "" when there is none.
    static func syntax(_ problem: String, at line: Int, in text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The parser may stop on the line after the one at fault: look at both.
        for n in [line, line - 1] where n >= 1 && n <= lines.count {
            if lines[n - 1].prefix(while: { $0 == " " || $0 == "\t" }).contains("\t") {
                return "; line \(n) is indented with a tab: YAML indents with spaces only"
            }
        }
        let outOfLine = ["expected '-' indicator", "did not find expected key", "mapping values are not allowed"]
        if outOfLine.contains(where: problem.contains) {
            return "; check the indentation: the keys of one mapping start in one column, as do the items of one list"
        }
        return ""
    }

    /// Where `key` is written again in the mapping whose first copy of it stands at `line`:`column` (1-based): the
    /// next line after it that holds `key:` at that column; nil when there is none.
    static func secondCopy(of key: String, after line: Int, column: Int, in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, column >= 1 else { return nil }
        for n in line..<lines.count {
            let text = lines[n]
            guard text.count >= column else { continue }
            let start = text.index(text.startIndex, offsetBy: column - 1)
            let rest = text[start...]
            if text[..<start].allSatisfy({ $0 == " " || $0 == "-" }), rest.hasPrefix(key + ":") {
                return (n + 1, column)
            }
        }
        return nil
    }
}
