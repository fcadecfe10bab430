import LayoutCompiler
public import Logging
public import ServiceLifecycle
import UnixSignals

/// Loads the mapping config again on SIGHUP. A config `check` finds an error in is refused: the one in use stays,
/// the error is logged and counted (`config_reload_failures_total`), readiness is not touched. A good one goes into
/// the worker's `CompilerSlot` and is used from the worker's next batch on.
public struct ConfigReloader: Service {
    let path: String
    let slot: CompilerSlot
    let maxInputBytes: Int
    let metrics: WorkerMetrics
    let logger: Logger

    public init(path: String, slot: CompilerSlot, maxInputBytes: Int, metrics: WorkerMetrics, logger: Logger) {
        self.path = path
        self.slot = slot
        self.maxInputBytes = maxInputBytes
        self.metrics = metrics
        self.logger = logger
    }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() { reload() }
    }

    /// Loads, checks and installs the config once; returns whether it was taken.
    @discardableResult
    public func reload() -> Bool {
        let inUse = slot.compiler.configHash
        switch CheckedMappingConfig.load(path) {
        case .failure(let error):
            metrics.configReloaded(failed: true)
            logger.error(
                "config reload refused; the config in use stays",
                metadata: [
                    "path": .string(path), "in-use": .string(inUse),
                    "errors": .string(error.diagnostics.map(\.description).joined(separator: "; ")),
                ])
            return false
        case .success(let checked):
            for warning in checked.warnings {
                logger.warning("config warning", metadata: ["finding": .string(warning.description)])
            }
            slot.replace(
                with: LayoutCompiler(config: checked.config, maxInputBytes: maxInputBytes), configHash: checked.hash)
            metrics.configReloaded(failed: false)
            metrics.config(hash: checked.hash, previous: inUse)
            logger.info(
                "config reloaded",
                metadata: ["path": .string(path), "config": .string(checked.hash), "previous": .string(inUse)])
            return true
        }
    }
}
