import Ops
import Serve
import Testing

/// What the worker's status says to its probes.
@Suite struct WorkerStatusTests {
    /// The worker's liveness fails once its loop stands still past the limit; a stop makes it not ready.
    @Test func theWorkersProbes() throws {
        let status = WorkerStatus(stallLimitSeconds: 2)
        #expect(status.liveness(at: .now + .seconds(60)).passes, "not started yet")
        let now = ContinuousClock.now
        status.heartbeat.beat(at: now)
        #expect(status.liveness(at: now + .seconds(1)).passes)
        let stalled = status.liveness(at: now + .seconds(3))
        #expect(!stalled.passes && stalled.detail.contains("has not turned for"), "\(stalled)")
        status.setJoined(true)
        #expect(status.readiness.passes)
        #expect(!status.stop.isRequested)
        status.requestStop()
        #expect(status.stop.isRequested && status.readiness == .failing("stopping"))
    }
}
