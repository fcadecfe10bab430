import LayoutCompiler
import LayoutJSON

/// What a line of standard input that is not JSON says about how the input was written, for one line of advice
/// after the run: standard input is one response a line (NDJSON), and two mistakes break every line of it.
enum StandardInputHint: Hashable, Sendable {
    /// A piece of a response that spans lines (pretty-printed): `{`, `"@type": "Page",`, `}`.
    case pieceOfAResponse
    /// Responses run together on one line (files without a final newline, joined by `cat`).
    case responsesRunTogether

    /// The hint `failure` of `line` gives, if any.
    init?(_ failure: CompileFailure, line: [UInt8]) {
        guard failure.code == .invalidJSON, let syntax = failure.syntax else { return nil }
        switch syntax {
        case .unexpectedEnd:
            self = .pieceOfAResponse
        case .unexpectedCharacter(let byte, _)
        where [UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ",")].contains(byte):
            self = .pieceOfAResponse
        case .trailingCharacters:
            let next = line[min(failure.offset ?? line.count, line.count)...].first {
                ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains($0)
            }
            switch next {
            case UInt8(ascii: "{")?, UInt8(ascii: "[")?: self = .responsesRunTogether
            case UInt8(ascii: ":")?, UInt8(ascii: ",")?: self = .pieceOfAResponse
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The lines of stdin failing the same way whose errors are shown; the advice comes before the first.
    static let linesShown = 3

    /// What the lines say about how stdin was written, and what to do: said once, before the first of them.
    var advice: String {
        switch self {
        case .pieceOfAResponse:
            return "stdin holds pieces of a response: stdin is one response a line (NDJSON), and a pretty-printed "
                + "response spans lines; pass the file as an argument, or make each response one line (jq -c . FILE)"
        case .responsesRunTogether:
            return "stdin holds responses run together: stdin is one response a line (NDJSON), and files without a "
                + "final newline run together under cat; pass the files as arguments, or end each response with a "
                + "newline (jq -c . FILES)"
        }
    }

    /// After the run: how many lines failed this way, when more than were shown.
    func summary(count: Int) -> String? {
        guard count > Self.linesShown else { return nil }
        let what = self == .pieceOfAResponse ? "a piece of a response" : "more than one response"
        return "\(count) lines of stdin held \(what); the errors of \(count - Self.linesShown) more are not shown"
    }
}
