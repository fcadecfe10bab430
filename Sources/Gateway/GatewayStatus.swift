import Foundation
public import Ops
import Synchronization

/// What the gateway's probes report: the feed thread's last turn, whether the latest layouts were read to their end
/// once, and the last problem reading the topics.
public final class GatewayStatus: Probed {
    /// The feed thread's last turn (it turns at least every 50 ms while it reads).
    let heartbeat = Heartbeat(stallLimit: .seconds(60))
    private let caughtUp = Atomic<Bool>(false)
    /// Asked by a graceful shutdown (`ThreadedWork`), read by the feed.
    public let stop = StopSignal()
    private let problemText = Mutex<String?>(nil)
    private let lags = Mutex<(latest: Int64, changes: Int64)>((0, 0))
    private let storeProblem = Mutex<String?>(nil)
    private let catchUp = Mutex<(seconds: Double, messages: Int)>((0, 0))
    /// What the feed is doing before it is ready, and since when.
    private let startStep = Mutex<(what: String, since: ContinuousClock.Instant)?>(nil)

    public init() {}

    func beat() { heartbeat.beat() }
    func setCaughtUp(seconds: Double, messages: Int) {
        catchUp.withLock { $0 = (seconds, messages) }
        caughtUp.store(true, ordering: .relaxed)
    }
    /// What the feed does now on its way to ready (a step taking long is named by `/readyz` and the log).
    func setStartStep(_ what: String) { startStep.withLock { $0 = (what, .now) } }

    /// The start step under way and how long it has taken so far, or nil once ready.
    var startStepUnderWay: (what: String, seconds: Double)? {
        guard !caughtUp.load(ordering: .relaxed), let step = startStep.withLock({ $0 }) else { return nil }
        return (step.what, (ContinuousClock.now - step.since) / .seconds(1))
    }

    func setPageStoreProblem(_ text: String?) { storeProblem.withLock { $0 = text } }

    /// Why the page store is off or failing (the gateway goes on from memory), or nil.
    public var pageStoreProblem: String? { storeProblem.withLock { $0 } }

    /// From the feed's start to ready: seconds, and latest-layout messages read (what the checkpoints did not cover).
    public var caughtUpAfter: (seconds: Double, messages: Int) { catchUp.withLock { $0 } }
    func setProblem(_ text: String?) { problemText.withLock { $0 = text } }
    func setLag(latest: Int64, changes: Int64) { lags.withLock { $0 = (latest, changes) } }

    /// Messages of the latest-layout and change-set topics not read yet (as of the feed's last look).
    public var lag: (latest: Int64, changes: Int64) { lags.withLock { $0 } }

    public var stopRequested: Bool { stop.isRequested }

    /// The probes: alive while the feed turns (within 60 s), ready once the latest layouts are read (a page store
    /// that cannot be used is a warning, not a failure).
    public func liveness() -> Probe { heartbeat.liveness(of: "the gateway's topic feed") }

    public var readiness: Probe {
        guard let why = notReady else {
            return .passing("ready" + (pageStoreProblem.map { "; warning: working from memory: \($0)" } ?? ""))
        }
        return .failing(why)
    }

    /// Readiness: nil when ready, else why not.
    public var notReady: String? {
        guard caughtUp.load(ordering: .relaxed) else {
            let step = startStepUnderWay.map { "\($0.what), for \(String(format: "%.1f", $0.seconds)) s" }
            return (step ?? "reading the latest layouts") + (problemText.withLock { $0 }.map { " (\($0))" } ?? "")
        }
        return nil
    }
}
