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
        // The tape is written straight into the document's array, sized for a node per `bytesPerNodeGuess` input
        // bytes (assembler responses make one per 12–15), so a document in flight holds at most that slack. An
        // input denser than that (e.g. an array of small numbers) is read again into worst-case scratch space
        // (about 10× the input: two bytes per node), copied out at its real size.
        let guess = bytes.count / Self.bytesPerNodeGuess + 64
        if guess < TapeBuilder.capacity(for: bytes.count, maxDepth: maxDepth) {
            var outcome: Result<Int, JSONSyntaxError> = .success(0)
            let nodes = [JSONNode](unsafeUninitializedCapacity: guess) { out, initialized in
                outcome = Result { () throws(JSONSyntaxError) in
                    try build(bytes, into: out.baseAddress!, capacity: guess)
                }
                // Nodes are plain values: a tape cut short needs no deinitializing.
                initialized = (try? outcome.get()) ?? 0
            }
            switch outcome {
            case .success: return JSONDocument(bytes: bytes, nodes: nodes)
            case .failure(let error) where error != TapeBuilder.tapeFull(count: bytes.count): throw error
            case .failure: break
            }
        }
        let capacity = TapeBuilder.capacity(for: bytes.count, maxDepth: maxDepth)
        let scratch = UnsafeMutablePointer<JSONNode>.allocate(capacity: capacity)
        defer { scratch.deallocate() }
        let count = try build(bytes, into: scratch, capacity: capacity)
        let nodes = [JSONNode](unsafeUninitializedCapacity: count) { out, initialized in
            UnsafeMutableRawPointer(out.baseAddress!).copyMemory(
                from: scratch, byteCount: count * MemoryLayout<JSONNode>.stride)
            initialized = count
        }
        return JSONDocument(bytes: bytes, nodes: nodes)
    }

    /// The first guess at a tape's size: one node per this many input bytes.
    static let bytesPerNodeGuess = 8

    /// Scans `bytes` into `nodes` (room for `capacity`); the number of nodes written.
    private func build(_ bytes: [UInt8], into nodes: UnsafeMutablePointer<JSONNode>, capacity: Int)
        throws(JSONSyntaxError) -> Int
    {
        let built: Result<Int, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            let builder = TapeBuilder(
                base: buffer.baseAddress!, count: buffer.count, maxDepth: maxDepth, nodes: nodes, capacity: capacity)
            defer { builder.deallocate() }
            return Result { () throws(JSONSyntaxError) in try builder.run() }
        }
        return try built.get()
    }
}
