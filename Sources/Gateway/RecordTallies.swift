public import NIOCore
import Synchronization

/// The record answers counted per event loop: each loop adds to counters of its own, so no counter is shared between
/// the loops on the request path (two loops adding to one shared counter made every GET wait on the other core's
/// cache line: 8% of the 304s a second). `/metrics` adds what they counted to the gateway's counters when it is
/// read (`drain`). An answer made off the loops is not counted here (the caller counts it at once).
public final class RecordTallies: Sendable {
    private let byLoop: PerLoop<LoopTally>

    /// Counters for each of `loops` (none: every answer is counted by the caller).
    public init(loops: [any EventLoop] = []) {
        byLoop = PerLoop(loops) { _ in LoopTally() }
    }

    /// Counts a record answered on the current loop (`notModified`: a 304; `bytes`: the body sent); false when
    /// not on one of the loops.
    func count(notModified: Bool, bytes: Int) -> Bool {
        guard let tally = byLoop.current else { return false }
        tally.requests.add(1, ordering: .relaxed)
        if notModified { tally.notModified.add(1, ordering: .relaxed) }
        if bytes > 0 { tally.bytes.add(bytes, ordering: .relaxed) }
        return true
    }

    /// What every loop counted since the last drain, taken.
    func drain() -> (requests: Int, notModified: Int, bytes: Int) {
        byLoop.all.reduce(into: (0, 0, 0)) { sum, tally in
            sum.0 += tally.requests.exchange(0, ordering: .relaxed)
            sum.1 += tally.notModified.exchange(0, ordering: .relaxed)
            sum.2 += tally.bytes.exchange(0, ordering: .relaxed)
        }
    }
}

/// One loop's counters, padded so that two loops' counters never share a cache line.
private final class LoopTally: Sendable {
    let requests = Atomic<Int>(0)
    let notModified = Atomic<Int>(0)
    let bytes = Atomic<Int>(0)
    private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}
