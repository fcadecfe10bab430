import Foundation
import LayoutCompiler
import Synchronization
import Testing

@Suite struct ParallelMapTests {
    /// Results come back in index order whatever the thread count, and the body runs exactly once per index.
    @Test(arguments: [0, 1, 2, 7, 1_000]) func resultsKeepTheirIndexAndEachRunsOnce(count: Int) {
        for jobs in [1, 2, 4, 64] {
            let calls = Mutex([Int](repeating: 0, count: count))
            let results = ParallelMap.map(count: count, jobs: jobs) { i in
                calls.withLock { $0[i] += 1 }
                return "r\(i)"
            }
            #expect(results == (0..<count).map { "r\($0)" }, "jobs \(jobs)")
            #expect(calls.withLock { $0 }.allSatisfy { $0 == 1 }, "jobs \(jobs)")
        }
    }

    /// With more than one job, bodies do run at the same time: a body that waits for a second one to start
    /// finishes only because another thread took the next index.
    @Test func bodiesOverlapOnSeveralThreads() {
        let started = Atomic<Int>(0)
        let overlapped = ParallelMap.map(count: 2, jobs: 2) { _ in
            started.wrappingAdd(1, ordering: .relaxed)
            // Bounded: on a machine too busy to lend a second thread for 60 s the test fails instead of hanging. It
            // waits without spinning, so on a loaded machine the other body's thread gets the core.
            let deadline = ContinuousClock.now + .seconds(60)
            while started.load(ordering: .relaxed) < 2 && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.001)
            }
            return started.load(ordering: .relaxed) == 2
        }
        #expect(overlapped == [true, true])
    }
}
