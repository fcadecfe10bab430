/// Reads strict RFC 8259 JSON into a `JSONDocument` tape without copying strings or numbers.
public struct JSONReader: Sendable {
    /// Deepest nesting of arrays and objects accepted.
    public var maxDepth: Int
    /// Largest input accepted, in bytes (at most `UInt32.max - 1`, the tape's offset range).
    public var maxBytes: Int

    public init(maxDepth: Int = 512, maxBytes: Int = Int(UInt32.max) - 1) {
        self.maxDepth = max(1, maxDepth)
        self.maxBytes = min(maxBytes, Int(UInt32.max) - 1)
    }

    /// Parses `bytes` into a tape; throws the first syntax error with its byte offset.
    public func read(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
        if bytes.count > maxBytes {
            throw JSONSyntaxError(offset: 0, reason: .inputTooLarge(limit: maxBytes))
        }
        let result: Result<[JSONNode], JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return .failure(JSONSyntaxError(offset: 0, reason: .emptyInput))
            }
            var builder = TapeBuilder(base: base, count: buffer.count, maxDepth: maxDepth)
            do throws(JSONSyntaxError) {
                try builder.run()
                return .success(builder.nodes)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let nodes): return JSONDocument(bytes: bytes, nodes: nodes)
        case .failure(let error): throw error
        }
    }
}
