import Foundation

/// Runs a process test's synchronous body (waits on processes, sockets and brokers) on a thread of its own, never on
/// one of Swift's cooperative threads: there are as many of those as cores (two here), so a blocking body on one
/// stalls every async test and task of its process (a feed followed beside the kill loops took 92 s instead of 3 s).
/// At most `LW_PROCESS_TESTS_AT_ONCE` bodies (default 4) run at once in one test process; the others wait their turn
/// without holding a thread. Task-local values (the current test, for `#expect`) are kept: the body runs in the
/// calling task, only on another executor. (Swift 6.3.1's region checker, SendNonSendable, can crash on a long body
/// with closures inside this closure: such a body goes into a function of its own, called from here.)
public func offThePool<T, Failure: Error>(_ body: () throws(Failure) -> T) async throws(Failure) -> T {
    await ProcessTestSlots.shared.enter()
    defer { ProcessTestSlots.shared.leave() }
    return try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { () throws(Failure) -> T in
        try body()
    }
}

/// A task executor that runs each job on a new thread, so a job that blocks holds only its own (and async work that
/// prefers it runs while a test's synchronous waits hold the cooperative pool).
public final class ThreadPerJobExecutor: TaskExecutor, @unchecked Sendable {
    public static let shared = ThreadPerJobExecutor()

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let thread = Thread { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// How many process-test bodies may run at once, and the tasks waiting for a turn (in arrival order).
final class ProcessTestSlots: @unchecked Sendable {
    static let shared = ProcessTestSlots(
        limit: ProcessInfo.processInfo.environment["LW_PROCESS_TESTS_AT_ONCE"].flatMap { Int($0) }.map { max(1, $0) }
            ?? 4)

    private let lock = NSLock()
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { self.limit = limit }

    func enter() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            lock.lock()
            if running < limit {
                running += 1
                lock.unlock()
                turn.resume()
            } else {
                waiting.append(turn)
                lock.unlock()
            }
        }
    }

    func leave() {
        lock.lock()
        if waiting.isEmpty {
            running -= 1
            lock.unlock()
        } else {
            let next = waiting.removeFirst()
            lock.unlock()
            next.resume()  // the slot passes to the next in line
        }
    }
}
