public import ContentTree
public import LayoutJSON

/// Why a response produced no layout record.
public struct CompileFailure: Error, Sendable, CustomStringConvertible {
    /// The failure kinds; each has a stable code used in dead-letter headers.
    public enum Code: String, CaseIterable, Sendable {
        /// The bytes are not strict JSON.
        case invalidJSON = "invalid-json"
        /// The JSON is not an assembler response (not an object, or no content items at all).
        case notAssemblerResponse = "not-assembler-response"
        /// The JSON is a layout record or change set (this service's output), not an assembler response.
        case layoutRecord = "layout-record"
        /// The strict policy rejected a response with error diagnostics.
        case strictPolicy = "strict-policy"
        /// The input is larger than allowed.
        case tooLarge = "too-large"
    }

    public let code: Code
    public let message: String
    /// Byte offset of the problem, for JSON syntax errors.
    public let offset: Int?
    /// The diagnostics that caused a strict-policy rejection.
    public let diagnostics: [Diagnostic]
    /// Why the bytes are not JSON, for `invalidJSON`.
    public let syntax: JSONSyntaxError.Reason?

    public init(
        code: Code, message: String, offset: Int? = nil, diagnostics: [Diagnostic] = [],
        syntax: JSONSyntaxError.Reason? = nil
    ) {
        self.code = code
        self.message = message
        self.offset = offset
        self.diagnostics = diagnostics
        self.syntax = syntax
    }

    /// What went wrong and where, without the code (a dead letter carries the code in a header of its own).
    public var reason: String { offset.map { "\(message) (byte \($0))" } ?? message }

    public var description: String { "\(code.rawValue): \(reason)" }
}
