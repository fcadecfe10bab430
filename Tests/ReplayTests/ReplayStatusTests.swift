import Ops
import Testing

@testable import Replay

/// What `replay --http`'s probes say at each phase.
@Suite struct ReplayStatusTests {
    @Test func readinessFollowsThePhases() {
        let status = ReplayStatus()
        #expect(status.readiness == .failing("finding the range to replay"))
        status.enter(.reading)
        status.beat(read: 3, of: 10)
        #expect(status.readiness == .passing("replaying; 3 of 10 read"))
        status.beat(read: 4, of: nil)
        #expect(status.readiness == .passing("replaying; 4 of ∞ read"))
        status.setOutputBlocked("no acknowledgement for 10000 ms from out")
        #expect(status.readiness == .failing("output blocked: no acknowledgement for 10000 ms from out"))
        status.setOutputBlocked(nil)
        status.enter(.draining)
        #expect(status.readiness == .passing("replaying; 4 read, waiting for acknowledgements"))
        status.enter(.finished)
        #expect(status.readiness == .failing("finished; 4 read"))
        status.stop.request()
        #expect(status.readiness == .failing("stopping"))
    }

    @Test func livenessFailsOnceTheLoopStandsStill() {
        let status = ReplayStatus(stallLimit: .seconds(5))
        #expect(status.liveness().passes, "not reading yet")
        let now = ContinuousClock.now
        status.heartbeat.beat(at: now)
        #expect(status.heartbeat.liveness(of: "the replay loop", at: now + .seconds(4)).passes)
        let stalled = status.heartbeat.liveness(of: "the replay loop", at: now + .seconds(6))
        #expect(stalled == .failing("the replay loop has not turned for 6 s (limit 5 s)"))
    }
}
