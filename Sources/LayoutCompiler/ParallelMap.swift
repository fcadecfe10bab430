import Dispatch
import Synchronization

/// A batch of responses compiled on several threads with the results kept in the batch's order: how the worker
/// compiles a batch of messages and how `compile` compiles its files and lines.
public enum ParallelMap {
    /// `body(i)` for every `i` in `0..<count`, on at most `jobs` threads (the caller's among them), in index order.
    /// Each thread takes the next index from a shared counter, so a large page on one thread does not hold the
    /// others back; `body` runs once per index.
    public static func map<T>(count: Int, jobs: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 1 && jobs > 1 else { return (0..<count).map(body) }
        let next = Atomic<Int>(0)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let slots = Slots(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
                while true {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < count else { return }
                    (slots.base + i).initialize(to: body(i))
                }
            }
            // `concurrentPerform` returns once every thread has: all `count` slots are written.
            initialized = count
        }
    }

    /// The result array's storage, written by the threads one distinct index each (the shared counter hands every
    /// index out once) and read only after they have all finished.
    private struct Slots<T>: @unchecked Sendable {
        let base: UnsafeMutablePointer<T>
    }
}
