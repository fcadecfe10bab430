public import Ops
import Synchronization

/// What the preview's probes report: alive while it answers; ready unless the whole preview has a problem (a
/// followed topic that does not exist yet, a Kafka error, a config that cannot be read), which readiness names.
public final class PreviewStatus: Probed {
    private let problem = Mutex<String?>(nil)
    private let pages: Int

    public init(pages: Int) { self.pages = pages }

    /// The preview's problem (nil: none), as the hub reports it.
    func setProblem(_ text: String?) { problem.withLock { $0 = text } }

    public func liveness() -> Probe { .passing("ok") }

    public var readiness: Probe {
        if let why = problem.withLock({ $0 }) { return .failing(why) }
        return .passing("ready; \(pages) page(s)")
    }
}
