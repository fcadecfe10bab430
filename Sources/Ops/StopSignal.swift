import Synchronization

/// The one way a long-running loop is asked to stop: set once (by a graceful shutdown, a signal, a test), read by the
/// loop between steps. The worker's and the gateway's status and the preview's topic follower each hold one.
public final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Asks the loop to finish what it holds and return.
    public func request() { flag.store(true, ordering: .sequentiallyConsistent) }

    /// Whether a stop was asked for.
    public var isRequested: Bool { flag.load(ordering: .sequentiallyConsistent) }
}
