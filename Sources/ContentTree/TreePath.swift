import LayoutJSON

/// Writes tree paths such as `contents[0].MainContent[1]` or `contents[0]["ecr:x"]`, as UTF-8 bytes.
public enum TreePath {
    /// The path of the root value.
    public static let root = "$"

    /// Appends a member name to `path` (bracket-quoted when it is not a plain identifier); an empty path is the root.
    public static func append(key: some Collection<UInt8>, to path: inout [UInt8]) {
        var plain = !key.isEmpty
        for b in key
        where
            !((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
            || b == 0x40)
        {
            plain = false
            break
        }
        if plain, let first = key.first, first >= 0x30 && first <= 0x39 { plain = false }
        if plain {
            if !path.isEmpty { path.append(UInt8(ascii: ".")) }
            path.append(contentsOf: key)
            return
        }
        path.append(contentsOf: [UInt8(ascii: "["), UInt8(ascii: "\"")])
        for b in key {
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { path.append(UInt8(ascii: "\\")) }
            path.append(b)
        }
        path.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "]")])
    }

    /// Appends an array index to `path`.
    public static func append(index: Int, to path: inout [UInt8]) {
        path.append(UInt8(ascii: "["))
        JSONWriter.appendDecimal(index, to: &path)
        path.append(UInt8(ascii: "]"))
    }

    /// The path text for written bytes (`$` when empty).
    public static func text(_ path: [UInt8]) -> String { path.isEmpty ? root : String(decoding: path, as: UTF8.self) }
}
