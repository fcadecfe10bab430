import NIOCore
import NIOPosix
import Testing

@testable import Gateway

/// Record answers counted per event loop, added up when drained (what `/metrics` does when it is read).
@Suite struct RecordTalliesTests {
    @Test func eachLoopCountsItsOwnAndADrainTakesTheSum() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { try? group.syncShutdownGracefully() }
        let loops = Array(group.makeIterator())
        let tallies = RecordTallies(loops: loops)
        #expect(!tallies.count(notModified: false, bytes: 10), "off the loops an answer is the caller's to count")
        let counted = try loops.enumerated().map { i, loop in
            loop.submit { () -> Bool in
                var all = true
                for n in 0..<(100 * (i + 1)) {
                    all = tallies.count(notModified: n % 2 == 0, bytes: n % 2 == 0 ? 0 : 1_000) && all
                }
                return all
            }
        }.map { try $0.wait() }
        #expect(counted == [true, true])
        let sum = tallies.drain()
        #expect(sum.requests == 300 && sum.notModified == 150 && sum.bytes == 150_000, "\(sum)")
        let again = tallies.drain()
        #expect(again.requests == 0 && again.notModified == 0 && again.bytes == 0, "a drain takes what it counts")
    }
}
