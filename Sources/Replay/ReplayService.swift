public import Delivery
public import LayoutCompiler
public import Logging
import Ops
public import ServiceLifecycle
import Synchronization

/// Runs a replay on its own thread as a lifecycle service: SIGTERM and SIGINT (a graceful shutdown) stop it cleanly,
/// flushing what is in flight and writing the checkpoint. The summary, or why it failed, is in `result` afterwards.
public struct ReplayService: Service {
    let settings: ReplaySettings
    let compiler: LayoutCompiler
    let configHash: String
    let tracer: MessageTracer
    let logger: Logger
    let progress: @Sendable (String) -> Void
    /// What the ops endpoints read; its stop signal is the one a graceful shutdown sets.
    public let status: ReplayStatus
    let metrics: ReplayMetrics?
    /// The replay's summary or failure, once `run` returned.
    public let result = ReplayResult()

    public init(
        settings: ReplaySettings, compiler: LayoutCompiler, configHash: String, status: ReplayStatus = ReplayStatus(),
        metrics: ReplayMetrics? = nil, tracer: MessageTracer, logger: Logger,
        progress: @escaping @Sendable (String) -> Void
    ) {
        self.settings = settings
        self.status = status
        self.metrics = metrics
        self.compiler = compiler
        self.configHash = configHash
        self.tracer = tracer
        self.logger = logger
        self.progress = progress
    }

    public func run() async throws {
        let outcome = await ThreadedWork.run(named: "layout-worker-replay", stop: status.stop) {
            [settings, compiler, configHash, status, metrics, tracer, logger, progress] in
            Result { () throws -> ReplaySummary in
                try Replayer(
                    settings: settings, compiler: compiler, configHash: configHash, status: status, metrics: metrics,
                    tracer: tracer, logger: logger, progress: progress
                ).run()
            }
        }
        result.value.withLock { $0 = outcome }
    }
}

/// Where a `ReplayService` leaves its outcome.
public final class ReplayResult: Sendable {
    let value = Mutex<Result<ReplaySummary, any Error>?>(nil)

    /// The summary, or the error the replay failed with; nil before the replay ended.
    public var outcome: Result<ReplaySummary, any Error>? { value.withLock { $0 } }
}
