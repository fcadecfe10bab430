public import ConfigReload
public import Delivery
import Kafka
import LayoutCompiler
public import Logging
import Ops
public import ServiceLifecycle

/// Runs a `LayoutWorker` on its own thread as a lifecycle service; graceful shutdown asks it to drain and leave.
public struct WorkerService: Service, CustomStringConvertible, CustomReflectable {
    let settings: ServeSettings
    let compilers: CompilerSlot
    let status: WorkerStatus
    let metrics: WorkerMetrics
    let tracer: MessageTracer
    let logger: Logger

    public init(
        settings: ServeSettings, compilers: CompilerSlot, status: WorkerStatus, metrics: WorkerMetrics,
        tracer: MessageTracer,
        logger: Logger
    ) {
        self.settings = settings
        self.compilers = compilers
        self.status = status
        self.metrics = metrics
        self.tracer = tracer
        self.logger = logger
    }

    public var description: String {
        "WorkerService(group: \(settings.groupID), output: \(settings.outputTopic), \(settings.kafka))"
    }

    public var customMirror: Mirror { Mirror(self, children: ["description": description], displayStyle: .struct) }

    public func run() async throws {
        let result = await ThreadedWork.run(named: "layout-worker", stop: status.stop) {
            [settings, compilers, status, metrics, tracer, logger] in
            Self.runWorker(
                settings: settings, compilers: compilers, status: status, metrics: metrics, tracer: tracer,
                logger: logger)
        }
        switch result {
        case .success(let counts):
            logger.info("worker finished", metadata: ["counts": .string(counts.description)])
        case .failure(let error):
            throw error
        }
    }

    /// Runs a worker to the end and returns its counts; the worker and its Kafka clients are destroyed before this
    /// returns, so the process never exits while librdkafka's threads are still tearing down (exiting under them
    /// can crash in its TLS cleanup).
    private static func runWorker(
        settings: ServeSettings, compilers: CompilerSlot, status: WorkerStatus, metrics: WorkerMetrics,
        tracer: MessageTracer, logger: Logger
    ) -> Result<WorkerCounts, KafkaError> {
        do throws(KafkaError) {
            let worker = try LayoutWorker(
                settings: settings, compilers: compilers, status: status, metrics: metrics, tracer: tracer,
                logger: logger)
            try worker.run()
            return .success(worker.counts)
        } catch {
            return .failure(error)
        }
    }
}
