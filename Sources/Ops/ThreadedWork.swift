import Foundation
import ServiceLifecycle

/// The one way every long-running command runs its blocking loop (the serve worker, a replay): on a thread of its
/// own, inside a lifecycle service, so SIGTERM and SIGINT reach it the same way (ServiceLifecycle's graceful
/// shutdown), and `stop` asks the loop to finish what it holds and return. Nothing in the project starts a thread
/// another way.
public enum ThreadedWork {
    /// Runs `work` on a new thread named `name` and returns its result; a graceful shutdown requests `stop`
    /// meanwhile.
    public static func run<Result: Sendable>(
        named name: String, stop: StopSignal, _ work: @escaping @Sendable () -> Result
    ) async -> Result {
        await withGracefulShutdownHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { continuation.resume(returning: work()) }
                thread.name = name
                thread.start()
            }
        } onGracefulShutdown: {
            stop.request()
        }
    }
}
