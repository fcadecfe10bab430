import AttributeCarrying
import Foundation
import LayoutCompiler
import LayoutDiff
import LayoutRecord
public import Logging
import Mapping
import Ops
public import ServiceLifecycle

/// Compiles assembler responses with a mapping config into a preview, and again whenever either file changes: every
/// `interval` each file's size and modification time are looked at, a file whose stamp changed is read, and it is
/// recompiled when its bytes differ. A config that does not load is the preview's
/// problem (the last good config stays in use); a response that does not compile is its page's problem (the page keeps
/// its last record). Attributes the adaptors carry across reloads are carried from the record shown, as `serve` does.
public struct ResponseFilesSource: Service {
    let configPath: String
    let responsePaths: [String]
    let hub: PreviewHub
    let maxInputBytes: Int
    /// Draw a config `check` refuses (`--accept-check-errors`) instead of treating it as one that does not load.
    let acceptCheckErrors: Bool
    let interval: Duration
    let logger: Logger

    public init(
        config: String, responses: [String], hub: PreviewHub, maxInputBytes: Int, acceptCheckErrors: Bool = false,
        interval: Duration = .milliseconds(250),
        logger: Logger
    ) {
        configPath = config
        responsePaths = responses
        self.hub = hub
        self.maxInputBytes = maxInputBytes
        self.acceptCheckErrors = acceptCheckErrors
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var state = State(count: self.responsePaths.count)
            while !Task.isCancelled {
                await self.pass(&state)
                try? await Task.sleep(for: self.interval)
            }
        }
    }

    /// What the last pass read and made.
    struct State {
        var config: [UInt8]?
        var compiler: LayoutCompiler?
        /// What a record does to its page: the compiler's carried attributes (made with the compiler).
        var step: PageStep?
        var responses: [[UInt8]?]
        var records: [RecordOutline?]
        /// Size and modification time of each file when it was last read, by use ("config", or the page's index:
        /// one file can be two pages).
        var stamps: [String: FileStamp] = [:]

        init(count: Int) {
            responses = Array(repeating: nil, count: count)
            records = Array(repeating: nil, count: count)
        }
    }

    /// Reads every file once; recompiles what changed.
    /// The config in `bytes` if it loads and `check` finds no error in it (with `acceptCheckErrors`: if it loads;
    /// its error findings are logged, saying that serve and replay refuse it); warnings are logged.
    func usable(_ bytes: [UInt8]) -> Result<MappingConfig, MappingConfigError> {
        CheckedMappingConfig.load(contents: bytes, path: configPath, acceptingErrors: acceptCheckErrors).map {
            checked in
            for finding in checked.acceptedErrors {
                logger.warning(
                    "config refused by check, drawn all the same (--accept-check-errors); serve and replay will not take it",
                    metadata: ["finding": "\(finding)"])
            }
            for finding in checked.warnings where finding.severity == .warning {
                logger.warning("config warning", metadata: ["finding": "\(finding)"])
            }
            return checked.config
        }
    }

    func pass(_ state: inout State) async {
        var recompileAll = false
        switch read(configPath, as: "config", &state.stamps) {
        case .bytes(let bytes) where bytes != state.config:
            state.config = bytes
            switch usable(bytes) {
            case .success(let config):
                let compiler = LayoutCompiler(config: config, maxInputBytes: maxInputBytes)
                state.compiler = compiler
                state.step = PageStep(for: compiler)
                await hub.use(compiler.resolver)
                recompileAll = true
                logger.info("config loaded", metadata: ["config": "\(configPath)"])
                await hub.report(nil, page: nil)
            case .failure(let error):
                logger.warning("config not loaded", metadata: ["config": "\(configPath)", "error": "\(error)"])
                await hub.report("\(error)", page: nil)
            }
        case .bytes, .unchanged: break
        case .problem(let why):
            state.config = nil
            await hub.report(why, page: nil)
        }
        guard let compiler = state.compiler else { return }
        for (page, path) in responsePaths.enumerated() {
            let bytes: [UInt8]
            switch read(path, as: "\(page)", &state.stamps) {
            case .bytes(let b): bytes = b
            case .unchanged where !recompileAll: continue
            case .unchanged:
                guard let last = state.responses[page] else { continue }
                bytes = last
            case .problem(let why):
                state.responses[page] = nil
                await hub.report(why, page: page)
                continue
            }
            guard recompileAll || bytes != state.responses[page] else { continue }
            state.responses[page] = bytes
            switch compiler.compile(bytes, source: RecordSource(file: path)) {
            case .success(let compiled):
                let record = state.step?.carried(compiled.outline, after: state.records[page]) ?? compiled.outline
                state.records[page] = record
                await hub.show(record, page: page)
            case .failure(let failure):
                logger.warning("response not compiled", metadata: ["response": "\(path)", "error": "\(failure)"])
                await hub.report("\(path): \(failure)", page: page)
            }
        }
    }

    /// The bytes of `path`, `unchanged` when its stamp is the one of its last read, or why it cannot be read.
    private func read(_ path: String, as use: String, _ stamps: inout [String: FileStamp]) -> FileRead {
        guard let stamp = FileStamp(path: path) else {
            stamps[use] = nil
            return .problem("\(path): cannot read the file")
        }
        if stamps[use] == stamp { return .unchanged }
        guard stamp.size <= maxInputBytes else {
            return .problem("\(path): \(stamp.size) bytes, more than the limit of \(maxInputBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .problem("\(path): cannot read the file")
        }
        stamps[use] = stamp
        return .bytes([UInt8](data))
    }

    /// A file's bytes, or why there are none.
    private enum FileRead {
        case bytes([UInt8])
        case unchanged
        case problem(String)
    }
}
