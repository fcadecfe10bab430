import Delivery
import Kafka
import LayoutCompiler
import LayoutRecord
import Metrics
import PageState

/// One message of a batch on its way through the loop: what compiling it gave, then (with change sets on) what it
/// does to its page and whether it stores the page's latest layout. A batch is one array of these, so the three
/// travel together and cannot fall out of step.
struct BatchItem {
    let message: KafkaMessage
    let outcome: MessageOutcome
    /// What the message does to its page (nil: change sets off, or no page: a dead letter, a pass-through input).
    var page: ChangeStage.Outcome?
    /// Whether it stores the page's latest layout, or a later message of the batch does (nil: it stores nothing).
    var state: StateWrite?

    init(_ message: KafkaMessage, _ outcome: MessageOutcome) {
        self.message = message
        self.outcome = outcome
    }

    /// Each message's outcome, timed; compiling spreads over the cores, the items stay in offset order. A
    /// pass-through run (benchmark baseline) publishes the input unchanged.
    static func compile(
        _ batch: [KafkaMessage], with compiler: LayoutCompiler, settings: ServeSettings, metrics: WorkerMetrics
    ) -> [BatchItem] {
        ParallelMap.map(count: batch.count, jobs: batch.count) { i in
            let message = batch[i]
            if settings.passThrough, let value = message.value, value.count <= settings.limits.maxMessageBytes {
                return BatchItem(message, .record(.raw(value), diagnostics: []))
            }
            #if DEBUG
            // The crash-loop breaker's fault hook (debug builds only): die while compiling a message with this key.
            if let key = settings.debugCrashKey, message.key == Array(key.utf8) {
                fatalError("debug fault hook: crashing on key \(key)")
            }
            #endif
            let start = ContinuousClock.now
            defer { metrics.compileLatency.record(duration: .now - start) }
            return BatchItem(message, .of(message, compiler: compiler, limits: settings.limits))
        }
    }

    /// The record's outline, or nil for a tombstone (or a skip that clears its page): what the change-set stage
    /// takes; nil when the message does nothing to a page.
    var pageInput: (message: KafkaMessage, record: RecordOutline?)? {
        switch outcome {
        // A pass-through run's input is not a record: it is published without a page.
        case .record(.outlined(let outline), _): (message, outline)
        case .tombstone: (message, nil)
        case .skip where message.value == nil: (message, nil)
        default: nil
        }
    }
}
