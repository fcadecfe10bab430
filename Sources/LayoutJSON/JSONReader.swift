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
        guard !bytes.isEmpty else { throw JSONSyntaxError(offset: 0, reason: .emptyInput) }
        var failure: JSONSyntaxError?
        let nodes = bytes.withUnsafeBufferPointer { buffer in
            [JSONNode](unsafeUninitializedCapacity: TapeBuilder.capacity(for: buffer.count, maxDepth: maxDepth)) { storage, initialized in
                var builder = TapeBuilder(base: buffer.baseAddress!, count: buffer.count, maxDepth: maxDepth, nodes: storage.baseAddress!)
                defer { builder.deallocate() }
                do throws(JSONSyntaxError) {
                    try builder.run()
                } catch {
                    failure = error
                }
                initialized = builder.nodeCount
            }
        }
        if let failure { throw failure }
        return JSONDocument(bytes: bytes, nodes: nodes)
    }
}
