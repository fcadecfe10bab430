/// Why a byte sequence is not strict RFC 8259 JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset (0-based) where the problem was found.
    public let offset: Int
    /// What is wrong.
    public let reason: Reason

    /// The kinds of syntax errors the reader reports.
    public enum Reason: Sendable, Equatable {
        case emptyInput
        case inputTooLarge(limit: Int)
        case unexpectedEnd(inside: String)
        case unexpectedCharacter(UInt8, expected: String)
        case trailingCharacters
        case unterminatedString
        case controlCharacterInString(UInt8)
        case invalidEscape
        case loneSurrogate
        case invalidUTF8
        case leadingZero
        case invalidNumber(String)
        case nonFiniteNumber
        case invalidLiteral
        case comment
        case singleQuotedString
        case tooDeep(limit: Int)
    }

    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// A one-line explanation with the byte offset.
    public var description: String { "\(message) at byte \(offset)" }

    /// The explanation without the offset.
    public var message: String {
        switch reason {
        case .emptyInput: return "empty input (no JSON value)"
        case .inputTooLarge(let limit): return "input larger than \(limit) bytes"
        case .unexpectedEnd(let inside): return "unexpected end of input inside \(inside)"
        case .unexpectedCharacter(let byte, let expected):
            return "unexpected \(Self.describe(byte)), expected \(expected)"
        case .trailingCharacters: return "trailing characters after the JSON value"
        case .unterminatedString: return "unterminated string"
        case .controlCharacterInString(let byte): return "unescaped control character \(Self.describe(byte)) in string"
        case .invalidEscape: return "invalid escape sequence in string"
        case .loneSurrogate: return "lone UTF-16 surrogate in \\u escape"
        case .invalidUTF8: return "invalid UTF-8"
        case .leadingZero: return "number with a leading zero"
        case .invalidNumber(let why): return "invalid number: \(why)"
        case .nonFiniteNumber: return "NaN and Infinity are not JSON numbers"
        case .invalidLiteral: return "invalid literal (expected true, false or null)"
        case .comment: return "comments are not allowed in JSON"
        case .singleQuotedString: return "single-quoted strings are not allowed in JSON"
        case .tooDeep(let limit): return "nesting deeper than \(limit) levels"
        }
    }

    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
