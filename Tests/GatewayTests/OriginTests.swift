import LayoutKit
import Testing

@testable import Gateway

/// The parts of `gateway --origin` that decide without a network: which keys may reach the origin, its URL, the
/// circuit breaker and the cache's budget.
@Suite struct OriginTests {
    private func refused(_ key: String, paths: [String] = []) -> String? {
        if case .failure(let r) = NavigationState.parse(key, allowedPaths: paths) { return r.code }
        return nil
    }

    @Test func aStateIsSentAsItStandsWithBytesOutsideASCIIEncoded() throws {
        let state = "/search?Nf=product.endDate%7CGTEQ+1.7794944E12&Ntt=olive+oil&format=json"
        #expect(try NavigationState.parse(state, allowedPaths: []).get().target == state)
        #expect(try NavigationState.parse("/categoría/_/N-1", allowedPaths: []).get().target == "/categor%C3%ADa/_/N-1")
        // An encoded slash in the query is a value, not a path.
        #expect(try NavigationState.parse("/search?Ns=a%2Fb", allowedPaths: []).get().target == "/search?Ns=a%2Fb")
    }

    @Test func keysThatCouldReachAnotherHostOrPathAreRefused() {
        for key in [
            "//evil.example", "/\\evil", "/a/../b", "/a/%2e%2e/b", "/a/%2E./b", "/a/./b", "/a/.", "/a%2Fb",
            "/a%5cb", "/a\\b", "/a@b", "/a b", "/a\u{7F}", "/a%0A", "/a?b=%00", "/a#b", "/a%", "/a%zz",
        ] {
            #expect(refused(key) != nil, "\(key) was taken")
        }
        #expect(refused("evil.example/x") == "not-a-state")
        #expect(refused("/admin", paths: ["/search"]) == "state-not-allowed")
        #expect(refused("/searchx", paths: ["/search"]) == "state-not-allowed")
        #expect(refused("/search", paths: ["/search"]) == nil && refused("/search/_/N-1", paths: ["/search"]) == nil)
        #expect(refused("/search?Ntt=x", paths: ["/search"]) == nil)
    }

    @Test func theOriginURLIsPlainHTTPWithAHostAndNoQuery() throws {
        let url = try OriginURL(parsing: "http://assembler.internal:8080/super/")
        #expect(url.host == "assembler.internal" && url.port == 8080 && url.prefix == "/super")
        #expect(
            url.hostHeader == "assembler.internal:8080" && url.description == "http://assembler.internal:8080/super")
        #expect(try OriginURL(parsing: "http://[::1]:9000").host == "::1")
        #expect(try OriginURL(parsing: "http://127.0.0.1").port == 80)
        for bad in ["https://a", "a:80", "http://", "http://u@a", "http://a/x?format=json", "http://a:0", "http://a:x"]
        {
            #expect(throws: OriginURLError.self, "\(bad)") { try OriginURL(parsing: bad) }
        }
    }

    @Test func theBreakerOpensAfterFaultsInARowAndLetsOneTrialThrough() {
        let breaker = OriginBreaker(failures: 3, cooldown: .seconds(5))
        let t0 = ContinuousClock.now
        for _ in 0..<2 { breaker.record(fault: true, now: t0) }
        breaker.record(fault: false, now: t0)  // a success between: the count starts again
        for _ in 0..<2 { breaker.record(fault: true, now: t0) }
        #expect(breaker.admit(now: t0) == nil)
        breaker.record(fault: true, now: t0)
        #expect(breaker.admit(now: t0 + .seconds(1)) == .seconds(4))
        #expect(breaker.admit(now: t0 + .seconds(5)) == nil, "the trial")
        #expect(breaker.admit(now: t0 + .seconds(5)) != nil, "one trial at a time")
        breaker.record(fault: true, now: t0 + .seconds(5))
        #expect(breaker.admit(now: t0 + .seconds(6)) == .seconds(4), "a failed trial opens it again")
        #expect(breaker.admit(now: t0 + .seconds(10)) == nil)
        breaker.record(fault: false, now: t0 + .seconds(10))
        #expect(breaker.admit(now: t0 + .seconds(10)) == nil && !breaker.isOpen)
    }

    @Test func theCacheLetsTheLeastRecentlyReadGoPastItsBudget() {
        func held(_ size: Int) -> HeldState {
            let record = [UInt8](repeating: 0x20, count: size)
            let hash = ContentHash(of: record)
            return HeldState(
                record: record, gzip: nil, hash: hash, responseHash: hash,
                validators: .init(), confirmedAt: .now, generation: 0)
        }
        let cache = OriginCache(maxBytes: 10_000)
        for i in 0..<9 { cache.store(held(744), for: "/s\(i)") }  // 1,000 bytes each with the entry's overhead
        _ = cache.read("/s0")
        cache.store(held(1_744), for: "/s9")  // 11,000 bytes: down to 9,000
        let kept = (0..<10).filter { cache.read("/s\($0)") != nil }
        #expect(cache.figures.bytes <= 9_000)
        #expect(kept.contains(0) && kept.contains(9) && !kept.contains(1) && !kept.contains(2), "\(kept)")
    }
}
