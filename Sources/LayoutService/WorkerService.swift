import Foundation
import Kafka
public import LayoutCompiler
public import Logging
public import ServiceLifecycle

/// Runs a `LayoutWorker` on its own thread as a lifecycle service; graceful shutdown asks it to drain and leave.
public struct WorkerService: Service, CustomStringConvertible, CustomReflectable {
    let settings: ServeSettings
    let compiler: LayoutCompiler
    let status: WorkerStatus
    let metrics: WorkerMetrics
    let logger: Logger

    public init(settings: ServeSettings, compiler: LayoutCompiler, status: WorkerStatus, metrics: WorkerMetrics, logger: Logger) {
        self.settings = settings
        self.compiler = compiler
        self.status = status
        self.metrics = metrics
        self.logger = logger
    }

    public var description: String { "WorkerService(group: \(settings.groupID), output: \(settings.outputTopic), \(settings.kafka))" }

    public var customMirror: Mirror { Mirror(self, children: ["description": description], displayStyle: .struct) }

    public func run() async throws {
        let status = self.status
        let result: Result<WorkerCounts, KafkaError> = await withGracefulShutdownHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { [settings, compiler, metrics, logger] in
                    do throws(KafkaError) {
                        let worker = try LayoutWorker(settings: settings, compiler: compiler, status: status, metrics: metrics, logger: logger)
                        try worker.run()
                        continuation.resume(returning: .success(worker.counts))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
                thread.name = "layout-worker"
                thread.start()
            }
        } onGracefulShutdown: {
            status.requestStop()
        }
        switch result {
        case .success(let counts):
            logger.info("worker finished", metadata: ["counts": .string(counts.description)])
        case .failure(let error):
            throw error
        }
    }
}
