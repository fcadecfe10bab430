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
        // The tape is written into worst-case scratch space (about 10× the input: two bytes per node), then
        // copied out at its real size (typically 1–2× the input), so a document in flight holds no slack.
        let capacity = TapeBuilder.capacity(for: bytes.count, maxDepth: maxDepth)
        let scratch = UnsafeMutablePointer<JSONNode>.allocate(capacity: capacity)
        defer { scratch.deallocate() }
        let built: Result<Int, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            let builder = TapeBuilder(
                base: buffer.baseAddress!, count: buffer.count, maxDepth: maxDepth, nodes: scratch)
            defer { builder.deallocate() }
            return Result { () throws(JSONSyntaxError) in try builder.run() }
        }
        let count = try built.get()
        let nodes = [JSONNode](unsafeUninitializedCapacity: count) { out, initialized in
            UnsafeMutableRawPointer(out.baseAddress!).copyMemory(
                from: scratch, byteCount: count * MemoryLayout<JSONNode>.stride)
            initialized = count
        }
        return JSONDocument(bytes: bytes, nodes: nodes)
    }
}
