/// A path into a JSON value: member names and array indexes, e.g. `attributes["product.brand"][0]`.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Step: Sendable, Hashable {
        case key(JSONKey)
        case index(Int)
    }

    /// The steps, outermost first.
    public var steps: [Step] {
        var steps: [Step] = []
        encoded.withUnsafeBufferPointer { e in
            var at = 0
            while at < e.count {
                let (key, value) = Self.step(at: &at, in: e)
                steps.append(key.map { .key(JSONKey(String(decoding: $0, as: UTF8.self))) } ?? .index(value))
            }
        }
        return steps
    }

    /// The steps in one buffer (one reference to count when a path is copied): per step a tag byte and an 8-byte
    /// value, a key's length followed by its UTF-8 bytes, or an index.
    private let encoded: [UInt8]
    private static let keyTag: UInt8 = 0
    private static let indexTag: UInt8 = 1

    /// Reads the step encoded at `at` and moves `at` past it: a key's bytes (and length), or nil and an index.
    @inline(__always)
    private static func step(at: inout Int, in e: UnsafeBufferPointer<UInt8>) -> (
        key: UnsafeBufferPointer<UInt8>?, value: Int
    ) {
        let value = UnsafeRawPointer(e.baseAddress! + at + 1).loadUnaligned(as: Int.self)
        let key = e[at] == keyTag ? UnsafeBufferPointer(start: e.baseAddress! + at + 9, count: value) : nil
        at += key == nil ? 9 : 9 + value
        return (key, value)
    }

    public init(_ steps: [Step]) {
        var encoded: [UInt8] = []
        for step in steps {
            switch step {
            case .key(let key):
                key.withUTF8 { k in
                    encoded.append(Self.keyTag)
                    withUnsafeBytes(of: k.count) { encoded.append(contentsOf: $0) }
                    encoded.append(contentsOf: k)
                }
            case .index(let n):
                encoded.append(Self.indexTag)
                withUnsafeBytes(of: n) { encoded.append(contentsOf: $0) }
            }
        }
        self.encoded = encoded
    }

    /// Why a path text could not be parsed, and at which character (0-based).
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let column: Int
        public let message: String
        public var description: String { "\(message) at column \(column + 1)" }
    }

    /// Parses a whole path text such as `detailsAction.recordState` or `["@class"]`.
    public init(parsing text: String) throws(ParseError) {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        let steps = try Self.parseSteps(scalars, &i)
        if i != scalars.count { throw ParseError(column: i, message: "unexpected '\(scalars[i])' in field path") }
        if steps.isEmpty { throw ParseError(column: 0, message: "empty field path") }
        self.init(steps)
    }

    /// Whether `c` can start a path name.
    public static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" || c == "@" || c == "$"
    }

    /// Whether `c` can continue a path name.
    public static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        isIdentifierStart(c) || (c >= "0" && c <= "9") || c == "-" || c == ":"
    }

    /// Parses steps starting at `i` (an identifier or `[`), stopping at the first character that cannot continue a path.
    public static func parseSteps(_ s: [Unicode.Scalar], _ i: inout Int) throws(ParseError) -> [Step] {
        var steps: [Step] = []
        var expectName = true
        while i < s.count {
            let c = s[i]
            if expectName && isIdentifierStart(c) {
                let start = i
                while i < s.count && isIdentifierPart(s[i]) { i += 1 }
                steps.append(.key(JSONKey(String(String.UnicodeScalarView(s[start..<i])))))
                expectName = false
            } else if c == "[" {
                i += 1
                guard i < s.count else { throw ParseError(column: i, message: "unterminated '['") }
                if s[i] == "\"" {
                    i += 1
                    var name = String.UnicodeScalarView()
                    while i < s.count && s[i] != "\"" {
                        if s[i] == "\\" && i + 1 < s.count { i += 1 }
                        name.append(s[i])
                        i += 1
                    }
                    guard i < s.count else { throw ParseError(column: i, message: "unterminated string in '[...]'") }
                    i += 1
                    steps.append(.key(JSONKey(String(name))))
                } else {
                    let start = i
                    while i < s.count && s[i] >= "0" && s[i] <= "9" { i += 1 }
                    guard i > start, let n = Int(String(String.UnicodeScalarView(s[start..<i]))) else {
                        throw ParseError(column: start, message: "expected an index or a quoted name in '[...]'")
                    }
                    steps.append(.index(n))
                }
                guard i < s.count && s[i] == "]" else { throw ParseError(column: i, message: "expected ']'") }
                i += 1
                expectName = false
            } else if !expectName && c == "." {
                i += 1
                expectName = true
                guard i < s.count && isIdentifierStart(s[i]) else {
                    throw ParseError(column: i, message: "expected a name after '.'")
                }
            } else {
                break
            }
        }
        return steps
    }

    /// The node this path leads to from `node`, or nil when any step is missing.
    public func resolve(in doc: JSONDocument, from node: Int) -> Int? {
        encoded.withUnsafeBufferPointer { e in
            var current = node
            var at = 0
            while at < e.count {
                let (key, value) = Self.step(at: &at, in: e)
                let next = if let key { doc.value(current, utf8: key) } else { doc.element(current, value) }
                guard let next else { return nil }
                current = next
            }
            return current
        }
    }

    public var description: String {
        var out = ""
        for (n, step) in steps.enumerated() {
            switch step {
            case .key(let key):
                let name = key.description
                if let first = name.unicodeScalars.first, Self.isIdentifierStart(first),
                    name.unicodeScalars.allSatisfy(Self.isIdentifierPart)
                {
                    out += (n == 0 ? "" : ".") + name
                } else {
                    var quoted = ""
                    for c in name.unicodeScalars {
                        if c == "\"" || c == "\\" { quoted.unicodeScalars.append("\\") }
                        quoted.unicodeScalars.append(c)
                    }
                    out += "[\"" + quoted + "\"]"
                }
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }
}
