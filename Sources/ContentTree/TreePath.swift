/// Builds tree paths such as `contents[0].MainContent[1]` or `contents[0]["ecr:x"]`.
public enum TreePath {
    /// The path of the root value.
    public static let root = "$"

    /// Appends a member name to `path` (bracket-quoted when it is not a plain identifier).
    public static func appending(key: String, to path: String) -> String {
        var plain = !key.isEmpty
        for b in key.utf8 where !((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D || b == 0x40) {
            plain = false
            break
        }
        if plain, let first = key.utf8.first, first >= 0x30 && first <= 0x39 { plain = false }
        let base = path == root ? "" : path
        if plain { return base.isEmpty ? key : base + "." + key }
        var escaped = ""
        for ch in key.unicodeScalars {
            if ch == "\"" || ch == "\\" { escaped.append("\\") }
            escaped.unicodeScalars.append(ch)
        }
        return base + "[\"" + escaped + "\"]"
    }

    /// Appends an array index to `path`.
    public static func appending(index: Int, to path: String) -> String {
        (path == root ? "" : path) + "[" + String(index) + "]"
    }
}
