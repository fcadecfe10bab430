import LayoutCompiler
import LayoutJSON
import LayoutRecord

/// `compile`'s inputs, compiled a batch at a time on several threads (`ParallelMap`, as the worker compiles its
/// batches) and written out in the order they came in: records on stdout, failures on stderr, exactly as one
/// thread would write them. A batch holds at most `jobs × batchPerJob` inputs and, for lines already read,
/// `batchBytes` of them.
struct CompileQueue {
    /// An input as it is queued: a file (read by the thread that compiles it) or what was read already.
    enum Input: Sendable {
        case file(String)
        case read(Result<NamedInput, InputError>)
    }

    /// What one input leaves: a record line, a pretty-printed record, or a failure for stderr.
    enum Outcome: Sendable {
        case line([UInt8])
        case text([UInt8])
        /// What failed and why; for a line of stdin that is not JSON (`notJSONLine`), what it says about how stdin
        /// was written, if anything.
        case failure(String, hint: StandardInputHint? = nil, notJSONLine: Bool = false)
    }

    static let batchPerJob = 8
    static let batchBytes = 64 << 20

    let compiler: LayoutCompiler
    let maxInputBytes: Int
    let pretty: Bool
    let jobs: Int
    private var pending: [Input] = []
    private var pendingBytes = 0
    /// Inputs written out so far, and how many of them failed.
    private(set) var total = 0
    private(set) var failed = 0
    /// Lines of stdin that failed in a way that says how stdin was written, by what they say (the advice is written
    /// before the first, the errors of the first `StandardInputHint.linesShown`).
    private(set) var hints: [StandardInputHint: Int] = [:]

    init(compiler: LayoutCompiler, maxInputBytes: Int, pretty: Bool, jobs: Int) {
        self.compiler = compiler
        self.maxInputBytes = maxInputBytes
        self.pretty = pretty
        self.jobs = max(1, jobs)
    }

    /// Queues `input`; a full batch is compiled and written out.
    mutating func add(_ input: Input) {
        pending.append(input)
        if case .read(.success(let read)) = input { pendingBytes += read.bytes.count }
        if pending.count >= jobs * Self.batchPerJob || pendingBytes >= Self.batchBytes { flush() }
    }

    /// Compiles what is queued and writes it out in order.
    mutating func flush() {
        guard !pending.isEmpty else { return }
        let inputs = pending, compiler = compiler, maxInputBytes = maxInputBytes, pretty = pretty
        let outcomes = ParallelMap.map(count: inputs.count, jobs: jobs) { i in
            Self.outcome(of: inputs[i], compiler: compiler, maxInputBytes: maxInputBytes, pretty: pretty)
        }
        for outcome in outcomes {
            total += 1
            switch outcome {
            case .line(let bytes): Output.outLine(bytes)
            case .text(let bytes): Output.out(bytes)
            case .failure(let message, let hint, let notJSONLine):
                failed += 1
                // Once stdin has shown pieces of a response, its other lines that are not JSON are more of them.
                let sticky: StandardInputHint? =
                    notJSONLine && hints[.pieceOfAResponse] != nil ? .pieceOfAResponse : nil
                guard let hint = hint ?? sticky else {
                    Output.error(message)
                    continue
                }
                // A handful of lines failing one way, after what it says; the rest counted (`StandardInputHint`).
                let seen = hints[hint, default: 0]
                hints[hint] = seen + 1
                if seen == 0 { Output.error(hint.advice) }
                if seen < StandardInputHint.linesShown { Output.error(message) }
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }

    /// Reads (a file) and compiles one input.
    static func outcome(of input: Input, compiler: LayoutCompiler, maxInputBytes: Int, pretty: Bool) -> Outcome {
        let read: Result<NamedInput, InputError>
        switch input {
        case .file(let path): read = InputSource.file(path, maxBytes: maxInputBytes)
        case .read(let result): read = result
        }
        switch read {
        case .failure(let e):
            return .failure("\(e.name): \(e.message)")
        case .success(let input):
            switch compiler.compile(input.bytes, source: RecordSource(file: input.name)) {
            case .success(let compiled):
                if pretty, let doc = try? JSONReader().read(compiled.bytes) {
                    return .text(JSONPrettyPrinter.format(doc))
                }
                return .line(compiled.bytes)
            case .failure(let failure):
                guard input.name.hasPrefix("stdin:") else {
                    let ndjson = NDJSONFileHint.holdsOneValueALine(
                        input.bytes, reason: failure.syntax, offset: failure.offset)
                    let advice = ndjson ? NDJSONFileHint.advice(input.name, pipedTo: "compile") : ""
                    return .failure("\(input.name): \(failure)\(advice)")
                }
                return .failure(
                    "\(input.name): \(failure)", hint: StandardInputHint(failure, line: input.bytes),
                    notJSONLine: failure.code == .invalidJSON)
            }
        }
    }
}
