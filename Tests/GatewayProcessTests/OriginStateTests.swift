import Foundation
import LayoutFeed
import LayoutKit
import Synchronization
import TestSupport
import Testing

@testable import ProcessTestSupport

/// A test broker with the two topics the gateway reads, a local origin, and a ready gateway with `--origin`.
struct OriginRig {
    let broker: TestBroker
    let changes: String, state: String
    let origin: TestOrigin
    let gateway: GatewayProcess
    var port: Int { gateway.port }

    init(origin: TestOrigin, extra: [String] = [], published: [(key: String, value: [UInt8])] = []) throws {
        broker = try TestBroker()
        (changes, state) = (uniqueName("changes"), uniqueName("latest"))
        try broker.createTopics([changes, state], partitions: 1)
        if !published.isEmpty { try broker.produce(state, published.map { ($0.key, $0.value) }) }
        self.origin = origin
        gateway = try GatewayProcess(
            broker: broker, changes: changes, state: state,
            // A generous origin timeout and max-age unless a test sets them: the suite runs beside the other process
            // tests, and a test starved of threads for a minute must not find its states stale.
            extra: ["--origin", origin.url]
                + (extra.contains("--config") ? [] : ["--config", Fixtures.path("config/default.yaml")])
                + (extra.contains("--origin-timeout-ms") ? [] : ["--origin-timeout-ms", "10000"])
                + (extra.contains("--origin-max-age") ? [] : ["--origin-max-age", "3600"]) + extra)
        try gateway.waitUntilReady()
    }

    /// `GET /v1/layouts/{state}`, the state URL-encoded in the path as the kits do.
    func get(_ state: String, headers: [String: String] = [:]) throws -> (
        status: Int, headers: [String: String], body: [UInt8]
    ) {
        try RawHTTP.get(port, OriginStateTests.path(state), headers: headers)
    }

    func json(_ body: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:]
    }
}

/// `gateway --origin`: navigation states no published page holds, fetched from the origin, compiled and cached.
@Suite struct OriginStateTests {
    /// A sort link of samples/search-page.json's record, as its `navigate` action's target stands.
    static let sort = "/search?Nf=product.endDate%7CGTEQ+1.7794944E12&Ntt=olive+oil&format=json&Ns=sku.activePrice%7C0"

    static func path(_ state: String) -> String {
        "/v1/layouts/" + state.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test func aStateIsFetchedOnceThenAnsweredFromTheCache() async throws {
        try await offThePool {
            let rig = try OriginRig(origin: try TestOrigin(states: [Self.sort: "samples/search-page.json"]))
            let first = try rig.get(Self.sort)
            #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            let source = rig.json(first.body)["source"] as? [String: Any]
            #expect(source?["origin"] as? String == rig.origin.url + Self.sort)
            #expect(source?["key"] as? String == Self.sort && source?["timestamp"] is Int)
            #expect(
                first.headers["cache-control"]?.hasPrefix("public, max-age=3600, stale-while-revalidate=30") == true)
            let etag = try #require(first.headers["etag"])

            let second = try rig.get(Self.sort)
            #expect(second.status == 200 && second.body == first.body && second.headers["etag"] == etag)
            #expect(try rig.get(Self.sort, headers: ["If-None-Match": etag]).status == 304)
            let zipped = try rig.get(Self.sort, headers: ["Accept-Encoding": "gzip"])
            #expect(zipped.headers["content-encoding"] == "gzip" && zipped.body.count < first.body.count / 3)
            #expect(try rig.origin.requests().total == 1)

            // The record is the one `compile` makes of the same response, but for its source.
            let compiled = try piped(
                Data(Fixtures.bytes("samples/search-page.json")), through: layoutWorkerBinary,
                ["compile", "--config", Fixtures.path("config/default.yaml")])
            var expected = rig.json(Array(compiled.output))
            var got = rig.json(first.body)
            expected["source"] = nil
            got["source"] = nil
            #expect(NSDictionary(dictionary: expected).isEqual(to: got))
        }
    }

    @Test func everyRefusedStateMakesNoOriginRequest() async throws {
        try await offThePool {
            let rig = try OriginRig(
                origin: try TestOrigin(any: "samples/search-page.json"), extra: ["--origin-paths", "/search,/browse"])
            let refused = [
                "//evil.example/x", "/\\evil.example/x", "/search/../admin", "/search/%2e%2E/admin", "/search/.%2e/x",
                "/search/./x", "/search%2F..%2Fadmin", "/search/a%5Cb", "/search/a\\b", "/search@evil.example/",
                "/search/a b", "/search/a\tb", "/search/%00", "/search?Ntt=%0d%0aHost:%20evil", "/search#x",
                "/admin/x", "/searchx/y", "/search%2Fx",
            ]
            for state in refused {
                let got = try rig.get(state)
                #expect((400..<500).contains(got.status), "\(state): \(got.status)")
            }
            // Not a state at all: absolute URLs and keys not starting with / are published pages' keys (404).
            for key in ["http://evil.example/x", "https:evil.example", "evil.example/x"] {
                #expect(try rig.get(key).status == 404, "\(key)")
            }
            // Over-long keys are refused by the key's own limit.
            #expect(try rig.get("/search?q=" + String(repeating: "a", count: 2_000)).status == 414)
            #expect(try rig.origin.requests().total == 0)
            // What is allowed still reaches it.
            #expect(try rig.get("/browse/_/N-1?format=json").status == 200)
            #expect(try rig.origin.requests().total == 1)
        }
    }

    @Test func aThousandClientsOfOneStateMakeOneOriginRequest() async throws {
        try await offThePool {
            let rig = try OriginRig(
                origin: try TestOrigin(states: [Self.sort: "samples/search-page.json"], latencyMs: 500),
                extra: ["--origin-timeout-ms", "10000"])
            var clients: [RawHTTP] = []
            for _ in 0..<1_000 {
                let c = try RawHTTP(port: rig.port)
                c.request(Self.path(Self.sort))
                clients.append(c)
            }
            let answers = clients.map { $0.response(timeout: 30) }
            #expect(answers.allSatisfy { $0.status == 200 }, "\(Set(answers.map(\.status)))")
            #expect(Set(answers.map(\.body)).count == 1 && Set(answers.compactMap { $0.headers["etag"] }).count == 1)
            #expect(try rig.origin.requests().total == 1)
        }
    }

    /// Every link a record carries leads to a layout: each `navigate` target of the samples' records (and the corpus
    /// page's, when ../shared is there) is answered 200, each fetched once.
    @Test func everyNavigateTargetOfTheSamplesIsAnswered() async throws {
        try await offThePool {
            let corpus = "../shared/corpus/assembler/supermami-1.json"
            let haveCorpus = FileManager.default.fileExists(atPath: Fixtures.path(corpus))
            let rig = try OriginRig(
                origin: try TestOrigin(
                    prefixes: ["/search": "samples/search-page.json"].merging(
                        haveCorpus ? ["/categoria": corpus] : [:]
                    ) { a, _ in a }))
            var records = Data()
            for (config, files) in [("config/default.yaml", Fixtures.samples)]
                + (haveCorpus ? [("config/examples/supermami.yaml", [corpus])] : [])
            {
                records += try piped(
                    Data(), through: layoutWorkerBinary,
                    ["compile", "--config", Fixtures.path(config)] + files.map(Fixtures.path)
                ).output
            }
            let paths = try piped(
                records, through: "python3", [Fixtures.path("scripts/navigate-targets.py"), "--paths"])
            let targets = String(decoding: paths.output, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(targets.count >= (haveCorpus ? 40 : 8), "\(targets.count) targets")
            for path in targets {
                let got = try RawHTTP.get(rig.port, path)
                #expect(got.status == 200, "\(path): \(String(decoding: got.body.prefix(300), as: UTF8.self))")
            }
            #expect(try rig.origin.requests().total == targets.count)
        }
    }

    @Test func aPublishedPageWithTheSameKeyWins() async throws {
        try await offThePool {
            let published = Array(
                #"{"version":2,"source":{"topic":"responses"},"page":{"type":null},"sections":[],"diagnostics":[]}"#
                    .utf8)
            let rig = try OriginRig(
                origin: try TestOrigin(any: "samples/search-page.json"), published: [(Self.sort, published)])
            #expect(try waitUntil(seconds: 20, every: 0.1) { try rig.get(Self.sort).body == published })
            #expect(try rig.origin.requests().total == 0)
        }
    }

    @Test func anOriginThatFailsIsNamedNeverPassedThrough() async throws {
        try await offThePool {
            let rig = try OriginRig(
                origin: try TestOrigin(any: "samples/search-page.json"),
                // A small response limit: an oversize answer is refused at 100 KB, long before the timeout, however
                // slowly a loaded machine writes it.
                extra: ["--origin-timeout-ms", "1000", "--origin-max-response-bytes", "100000"])
            var n = 0
            func state() -> String {
                n += 1
                return "/search/_/N-\(n)?format=json"
            }
            func expectAnswer(
                _ faults: [String: Any], _ status: Int, _ code: String,
                sourceLocation: SourceLocation = #_sourceLocation
            ) throws {
                try rig.origin.set(faults)
                let got = try rig.get(state())
                let body = rig.json(got.body)
                #expect(got.status == status, "\(faults): \(got.status)", sourceLocation: sourceLocation)
                #expect(body["error"] as? String == code, "\(faults): \(body)", sourceLocation: sourceLocation)
                if status == 502 && code != "origin-too-large" || status == 504 {
                    #expect(got.headers["retry-after"] != nil, "\(faults)", sourceLocation: sourceLocation)
                }
                #expect(got.headers["cache-control"] == "no-store", sourceLocation: sourceLocation)
            }
            try expectAnswer(["status": 503], 502, "origin-error")
            try expectAnswer(["reset": true], 502, "origin-unreachable")
            try expectAnswer(["latency_ms": 3_000], 504, "origin-timeout")
            try expectAnswer(["slow_body_ms": 3_000], 504, "origin-timeout")
            try expectAnswer(["status": 404], 404, "unknown-state")
            try expectAnswer(["oversize_bytes": 200_000], 502, "origin-too-large")
            try expectAnswer(["oversize_bytes": 200_000, "no_length": true], 502, "origin-too-large")
            try rig.origin.set(["body": "{\"@type\": \"Page\", oops}"])
            let notCompiled = try rig.get(state())
            let error = rig.json(notCompiled.body)
            #expect(notCompiled.status == 422 && error["error"] as? String == "invalid-json")
            #expect(error["offset"] as? Int == 18, "\(error)")
            // Five origin faults in a row (5xx, timeouts, refused or reset connections) open the circuit breaker: the
            // next state fails at once, with no request.
            for _ in 0..<5 { try expectAnswer(["status": 500], 502, "origin-error") }
            let before = try rig.origin.requests().total
            try expectAnswer([:], 502, "origin-circuit-open")
            #expect(try rig.origin.requests().total == before)
            // An origin that is gone: refused connections, once the breaker lets a request through again (5 s).
            kill(rig.origin.process.processIdentifier, SIGKILL)
            rig.origin.process.waitUntilExit()
            var last: [String: Any] = [:]
            let refused = try waitUntil(seconds: 15, every: 0.25) {
                last = rig.json(try rig.get(state()).body)
                return last["error"] as? String == "origin-unreachable"
            }
            #expect(refused, "last answer: \(last)")
            let metrics = String(decoding: try RawHTTP.get(rig.gateway.opsPort, "/metrics").body, as: UTF8.self)
            for outcome in [
                "origin-error", "refused", "timeout", "not-found", "too-large", "not-compiled", "circuit-open",
            ] {
                #expect(
                    metrics.contains("layout_gateway_origin_requests_total{outcome=\"\(outcome)\"}"),
                    "\(outcome) not in /metrics")
            }
            #expect(try RawHTTP.get(rig.gateway.opsPort, "/readyz").status == 200, "readiness does not depend on it")
            #expect(rig.gateway.logText.contains("\"origin state not had\""))
            #expect(rig.gateway.logText.contains("\"outcome\":\"timeout\""))
        }
    }

    @Test func aHeldStateIsAnsweredWhileTheOriginFails() async throws {
        try await offThePool {
            let rig = try OriginRig(
                origin: try TestOrigin(states: [Self.sort: "samples/search-page.json"]),
                extra: [
                    "--origin-max-age", "0", "--origin-stale-while-revalidate", "0", "--origin-stale-if-error", "600",
                ])
            let first = try rig.get(Self.sort)
            #expect(first.status == 200)
            // max-age 0: every GET asks the origin, which fails now; the held copy is answered (stale-if-error).
            try rig.origin.set(["status": 500])
            let stale = try rig.get(Self.sort)
            #expect(stale.status == 200 && stale.body == first.body)
            #expect(try rig.origin.requests().total == 2)
            // A refetch that finds the same response keeps the record (and its ETag): nothing changed for a client.
            try rig.origin.set([:])
            let again = try rig.get(Self.sort)
            #expect(again.headers["etag"] == first.headers["etag"] && again.body == first.body)
            #expect(try rig.origin.requests().total == 3)
        }
    }

    @Test func backendsPostResponsesToCompileOnTheOpsPortOnly() async throws {
        try await offThePool {
            let rig = try OriginRig(
                origin: try TestOrigin(), extra: ["--compile-endpoint", "ops", "--origin-max-response-bytes", "100000"])
            let ops = rig.gateway.opsPort
            let sample = Fixtures.bytes("samples/search-page.json")
            let compiled = try RawHTTP.get(ops, "/v1/compile", method: "POST", body: sample)
            #expect(compiled.status == 200, "\(String(decoding: compiled.body, as: UTF8.self))")
            #expect((rig.json(compiled.body)["sections"] as? [Any])?.isEmpty == false)
            #expect(try RawHTTP.get(rig.port, "/v1/compile", method: "POST", body: sample).status == 405)
            let bad = try RawHTTP.get(ops, "/v1/compile", method: "POST", body: Array("[1,".utf8))
            #expect(bad.status == 422 && rig.json(bad.body)["error"] as? String == "invalid-json")
            let big = try RawHTTP.get(
                ops, "/v1/compile", method: "POST", body: [UInt8](repeating: 0x20, count: 200_000))
            #expect(big.status == 413)
            #expect(try RawHTTP.get(ops, "/v1/compile").status == 405)
        }
    }
}

/// Streams on navigation states: the record, then a change set when a refetch finds a new layout.
@Suite struct OriginStreamTests {
    @Test func aStreamOnAStateGetsTheRecordThenChangeSetsFromRefetches() async throws {
        try await offThePool {
            let sort = OriginStateTests.sort
            let rig = try OriginRig(
                origin: try TestOrigin(states: [sort: "samples/search-page.json"]), extra: ["--origin-refresh", "1"])
            let live = try RawHTTP(port: rig.port)
            live.request(OriginStateTests.path(sort) + "/changes")
            #expect(live.read(timeout: 20) { _ in live.events.count >= 1 }, "\(rig.gateway.logText.suffix(2000))")
            let first = try #require(live.events.first)
            #expect(first.event == "record")
            let record = Array(first.data.utf8)
            #expect(try rig.get(sort).body == record)

            // Unchanged refetches (one a second while the stream is open) send nothing.
            let before = try rig.origin.requests().total
            #expect(try waitUntil(seconds: 20, every: 0.1) { try rig.origin.requests().total >= before + 2 })
            let more = live.read(timeout: 1.5) { _ in live.events.count > 1 }  // what came meanwhile is read
            #expect(!more && live.events.count == 1, "\(live.events.map(\.event))")

            // The origin's answer changes: the stream gets the change set from the record it holds.
            try rig.origin.set(["body": Fixtures.text("samples/grouped-results.json")])
            #expect(live.read(timeout: 20) { _ in live.events.count >= 2 }, "\(rig.gateway.logText.suffix(2000))")
            let second = try #require(live.events.dropFirst().first)
            #expect(second.event == "change-set")
            let applied = try ChangeSetApplier().apply(Array(second.data.utf8), to: record)
            #expect(ContentHash(of: applied).description == second.id.prefix(16))
            #expect(try waitUntil(seconds: 10, every: 0.1) { try rig.get(sort).body == applied })

            // A stream on a state the gateway may not fetch is refused, with no request for it (the open stream's
            // state goes on being fetched every second).
            let refused = try RawHTTP.get(rig.port, OriginStateTests.path("/search/../admin") + "/changes")
            #expect(refused.status == 400)
            let asked = try rig.origin.requests().paths
            #expect(asked.keys.allSatisfy { $0 == sort }, "\(asked)")
        }
    }
}

/// The kits open a row's `navigate` action through a gateway with `--origin`: no page was published for it.
@Suite struct KitNavigationTests {
    /// The first row's `navigate` action of samples/search-page.json's record (a refinement), as the record carries it.
    static func rowAction() throws -> Layout.Action {
        let compiled = try piped(
            Data(Fixtures.bytes("samples/search-page.json")), through: layoutWorkerBinary,
            ["compile", "--config", Fixtures.path("config/default.yaml")])
        let record = try JSONDecoder().decode(Layout.Record.self, from: compiled.output)
        let actions =
            record.sections.flatMap(\.rows).compactMap(\.action)
            + record.sections.flatMap(\.rows).flatMap { ($0.events ?? [:]).values.compactMap(\.action) }
        return try #require(actions.first { $0.kind == "navigate" })
    }

    @Test func theSwiftKitFollowsTheStateANavigateActionLeadsTo() async throws {
        let action = try Self.rowAction()
        // The feed's stream follows the state; no refetch within the test however long a loaded run makes it.
        let rig = try OriginRig(
            origin: try TestOrigin(states: [action.target: "samples/search-page.json"]),
            extra: ["--origin-refresh", "3600"])
        let gateway = URL(string: "http://127.0.0.1:\(rig.port)")!
        #expect(LayoutFeed(gateway: gateway, opening: Layout.Action(kind: "link", target: "/x")) == nil)
        let feed = try #require(LayoutFeed(gateway: gateway, opening: action))
        let seen = Mutex<[LayoutFeed.Record]>([])
        let following = Task(executorPreference: ThreadPerJobExecutor.shared) {
            for try await record in feed.records(retry: .milliseconds(200)) { seen.withLock { $0.append(record) } }
        }
        defer { following.cancel() }
        let arrived = await waitUntil(seconds: 30, every: 0.05) { () async -> Bool in !seen.withLock(\.isEmpty) }
        #expect(arrived, "no record within 30 s")
        let served = try rig.get(action.target)
        #expect(served.status == 200 && seen.withLock { $0.first?.bytes } == served.body)
        #expect(try rig.origin.requests().total == 1)
    }

    @Test func theWebKitFetchesTheStateANavigateActionLeadsTo() async throws {
        try await offThePool {
            let action = try Self.rowAction()
            let rig = try OriginRig(origin: try TestOrigin(states: [action.target: "samples/search-page.json"]))
            let script = """
                import { LayoutFeed } from "\(Fixtures.path("clients/web/layout-feed.js"))";
                const action = JSON.parse(process.argv[1]);
                if (LayoutFeed.opening("", { kind: "link", target: "/x" }, { onRecord() {} }) !== null) process.exit(3);
                const feed = LayoutFeed.opening(process.argv[2], action, {
                  onRecord(text, hash) { process.stdout.write(hash + "\\n" + text); },
                  onError(e) { console.error(String(e)); process.exit(2); },
                });
                await feed.refetch();
                """
            let actionJSON = try String(decoding: JSONEncoder().encode(action), as: UTF8.self)
            let out = try piped(
                Data(), through: "node",
                ["--input-type=module", "-e", script, actionJSON, "http://127.0.0.1:\(rig.port)"])
            #expect(out.status == 0)
            let text = String(decoding: out.output, as: UTF8.self)
            let served = try rig.get(action.target)
            #expect(served.status == 200)
            #expect(
                text.split(separator: "\n", maxSplits: 1).last.map { Array($0.utf8) } == served.body,
                "\(text.prefix(300))")
            #expect(text.hasPrefix(ContentHash(of: served.body).description))
        }
    }
}
