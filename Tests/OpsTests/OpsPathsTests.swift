import Testing

@testable import Ops

/// The ops endpoints as every command serves them (`OpsPaths`), and the worker's probes behind them.
@Suite struct OpsPathsTests {
    struct Fixed: Probed {
        var alive: Probe
        var ready: Probe
        func liveness() -> Probe { alive }
        var readiness: Probe { ready }
    }

    static func text(_ answer: OpsPaths.Answer?) -> String {
        String(decoding: answer?.body ?? [], as: UTF8.self)
    }

    @Test func probesAnswer200Or503WithTheirDetail() throws {
        let good = Fixed(alive: .passing("ok"), ready: .passing("ready; 2 partition(s) assigned"))
        let bad = Fixed(alive: .failing("the loop stalled"), ready: .failing("brokers unreachable: refused"))
        let metrics: () -> [UInt8] = { Array("layout_worker_up 1\n".utf8) }
        let alive = OpsPaths.answer("/healthz", probes: good, metrics: metrics)
        #expect(alive?.status == 200 && Self.text(alive) == "ok\n")
        let ready = OpsPaths.answer("/readyz", probes: good, metrics: metrics)
        #expect(ready?.status == 200 && Self.text(ready) == "ready; 2 partition(s) assigned\n")
        let dead = OpsPaths.answer("/healthz", probes: bad, metrics: metrics)
        #expect(dead?.status == 503 && Self.text(dead) == "not alive: the loop stalled\n")
        let unready = OpsPaths.answer("/readyz", probes: bad, metrics: metrics)
        #expect(unready?.status == 503 && Self.text(unready) == "not ready: brokers unreachable: refused\n")
        let exposition = OpsPaths.answer("/metrics", probes: bad, metrics: metrics)
        #expect(exposition?.status == 200 && exposition?.contentType == MetricsExposition.contentType)
        #expect(Self.text(exposition) == "layout_worker_up 1\n")
        #expect(OpsPaths.answer("/", probes: good, metrics: metrics) == nil)
        #expect(OpsPaths.answer("/healthz/", probes: good, metrics: metrics) == nil)
    }
}
