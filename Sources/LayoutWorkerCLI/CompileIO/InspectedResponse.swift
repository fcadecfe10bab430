import ContentTree
import LayoutCompiler
import LayoutJSON
import LayoutRecord

/// A response read to look at what a config makes of it (`check`, `explain`): its content tree and its record.
/// The one way both read, parse and compile a response, input errors and JSON errors alike.
struct InspectedResponse {
    /// The input's name (a file, or `stdin:LINE`).
    let name: String
    let tree: ContentTree
    let record: LayoutRecord

    /// `read` (an input, or why it could not be read) compiled by `compiler`; a response that is not JSON is an
    /// `invalid-json` error naming the input.
    static func compile(_ read: Result<NamedInput, InputError>, with compiler: LayoutCompiler) -> Result<
        InspectedResponse, InputError
    > {
        let input: NamedInput
        switch read {
        case .success(let i): input = i
        case .failure(let e): return .failure(e)
        }
        let document: JSONDocument
        do {
            document = try JSONReader(maxDepth: compiler.config.options.maxDepth).read(input.bytes)
        } catch {
            let ndjson =
                !input.name.hasPrefix("stdin:")
                && NDJSONFileHint.holdsOneValueALine(input.bytes, reason: error.reason, offset: error.offset)
            let advice = ndjson ? NDJSONFileHint.advice(input.name, pipedTo: "check CONFIG -") : ""
            return .failure(InputError(name: input.name, message: "\(error)\(advice)", code: "invalid-json"))
        }
        let tree = ContentTree(document: document)
        return .success(
            InspectedResponse(
                name: input.name, tree: tree, record: compiler.layout(tree, source: RecordSource(file: input.name))))
    }
}
