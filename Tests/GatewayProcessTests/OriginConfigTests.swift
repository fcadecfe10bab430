import Foundation
import TestSupport
import Testing

@testable import ProcessTestSupport

/// `gateway --origin` compiles with the config `serve` would, reloaded the same way.
@Suite struct OriginConfigTests {
    @Test func aReloadedConfigMakesHeldStatesFetchedAgain() async throws {
        try await offThePool {
            let config = FileManager.default.temporaryDirectory.appendingPathComponent(
                "origin-\(UUID().uuidString).yaml")
            try Fixtures.text("config/default.yaml").write(to: config, atomically: true, encoding: .utf8)
            let rig = try OriginRig(
                origin: try TestOrigin(states: [OriginStateTests.sort: "samples/search-page.json"]),
                extra: ["--config", config.path])
            let first = try rig.get(OriginStateTests.sort)
            #expect(first.status == 200)
            #expect(try rig.get(OriginStateTests.sort).body == first.body && rig.origin.requests().total == 1)

            // Another config: the held state was compiled with the old one, so the next GET asks the origin again
            // (and is answered meanwhile, as a stale copy is).
            try (Fixtures.text("config/default.yaml") + "\n# another config\n").write(
                to: config, atomically: true, encoding: .utf8)
            kill(rig.gateway.process.processIdentifier, SIGHUP)
            #expect(
                waitUntil(seconds: 10, every: 0.05) { rig.gateway.logText.contains("\"config reloaded\"") },
                "\(rig.gateway.logText.suffix(2000))")
            _ = try rig.get(OriginStateTests.sort)
            #expect(try waitUntil(seconds: 10, every: 0.1) { try rig.origin.requests().total == 2 })

            // A config `check` refuses is not taken: the one in use stays, and states are answered.
            try "mappings: [".write(to: config, atomically: true, encoding: .utf8)
            kill(rig.gateway.process.processIdentifier, SIGHUP)
            #expect(waitUntil(seconds: 10, every: 0.05) { rig.gateway.logText.contains("\"config reload refused") })
            #expect(try rig.get(OriginStateTests.sort).status == 200)
        }
    }
}
