public import LayoutCompiler
public import Logging
import MappingFiles
import Ops
public import ServiceLifecycle
import UnixSignals

/// What a reload reports: `config_reloads_total` or `config_reload_failures_total`, and the `config_info` gauge.
public protocol ConfigReloadMetrics: Sendable {
    func configReloaded(failed: Bool)
    func config(hash: String, previous: String?)
}

/// Loads the mapping config again on SIGHUP and, with `watchInterval`, when the file's size or modification time
/// changes (a Kubernetes ConfigMap update). A config `check` finds an error in is refused: the one in use stays,
/// the error is logged and counted (`config_reload_failures_total`), readiness is not touched. A good one goes into
/// the `CompilerSlot` (the worker's: used from its next batch on; the gateway's: for states fetched from then on). Reloads happen one at a time.
public struct ConfigReloader: Service {
    let path: String
    let slot: CompilerSlot
    let maxInputBytes: Int
    let metrics: any ConfigReloadMetrics
    let logger: Logger
    /// How often the file is looked at; nil: on SIGHUP only.
    let watchInterval: Duration?

    public init(
        path: String, slot: CompilerSlot, maxInputBytes: Int, metrics: any ConfigReloadMetrics, logger: Logger,
        watchInterval: Duration? = nil
    ) {
        self.path = path
        self.slot = slot
        self.maxInputBytes = maxInputBytes
        self.metrics = metrics
        self.logger = logger
        self.watchInterval = watchInterval
    }

    public func run() async throws {
        let (triggers, trigger) = AsyncStream.makeStream(of: String.self)
        let signals = await UnixSignalsSequence(trapping: .sighup)
        let (path, interval) = (self.path, watchInterval)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in signals { trigger.yield("SIGHUP") }
                }
                if let interval {
                    group.addTask {
                        var seen = FileStamp(path: path)
                        while (try? await Task.sleep(for: interval)) != nil {
                            let now = FileStamp(path: path)
                            if now != seen, now != nil { trigger.yield("the file changed") }
                            seen = now
                        }
                    }
                }
                for await why in triggers { reload(because: why) }
                group.cancelAll()
            }
        }
    }

    /// Loads, checks and installs the config once; returns whether it was taken.
    @discardableResult
    public func reload(because why: String = "asked") -> Bool {
        let inUse = slot.compiler.configHash
        switch CheckedMappingConfig.load(path) {
        case .failure(let error):
            metrics.configReloaded(failed: true)
            logger.error(
                "config reload refused; the config in use stays",
                metadata: [
                    "path": .string(path), "in-use": .string(inUse), "trigger": .string(why),
                    "errors": .string(error.diagnostics.map(\.description).joined(separator: "; ")),
                ])
            return false
        case .success(let checked):
            checked.logWarnings(logger)
            slot.replace(
                with: LayoutCompiler(config: checked.config, maxInputBytes: maxInputBytes), configHash: checked.hash)
            metrics.configReloaded(failed: false)
            metrics.config(hash: checked.hash, previous: inUse)
            logger.info(
                "config reloaded",
                metadata: [
                    "path": .string(path), "config": .string(checked.hash), "previous": .string(inUse),
                    "trigger": .string(why),
                ])
            return true
        }
    }
}

extension CheckedMappingConfig {
    /// Logs each of `check`'s warnings (at start and on every reload).
    public func logWarnings(_ logger: Logger) {
        for warning in warnings {
            logger.warning("config warning", metadata: ["finding": .string(warning.description)])
        }
    }
}
