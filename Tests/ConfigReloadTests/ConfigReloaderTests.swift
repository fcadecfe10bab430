import ConfigReload
import Foundation
import LayoutCompiler
import Logging
import Mapping
import Synchronization
import TestSupport
import Testing

/// The config in use and its reloads, as `serve` and `gateway --origin` share them.
@Suite struct ConfigReloaderTests {
    final class Counts: ConfigReloadMetrics {
        let taken = Mutex<[String]>([])
        let failures = Atomic<Int>(0)
        func configReloaded(failed: Bool) { if failed { failures.add(1, ordering: .relaxed) } }
        func config(hash: String, previous: String?) { taken.withLock { $0.append(hash) } }
    }

    private func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString).yaml")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aGoodConfigGoesIntoTheSlotWithTheNextGeneration() throws {
        let path = try file(Fixtures.text("config/default.yaml"))
        let slot = CompilerSlot(LayoutCompiler(config: MappingConfig()), configHash: "before")
        let counts = Counts()
        let reloader = ConfigReloader(
            path: path, slot: slot, maxInputBytes: 1 << 20, metrics: counts, logger: Logger(label: "test"))
        #expect(slot.newer(than: 0) == nil)
        #expect(reloader.reload())
        let now = slot.compiler
        #expect(now.generation == 1 && now.configHash != "before")
        #expect(slot.newer(than: 0)?.configHash == now.configHash)
        #expect(counts.taken.withLock { $0 } == [now.configHash])
    }

    @Test func aConfigCheckRefusesLeavesTheOneInUse() throws {
        let path = try file("mappings:\n  - type: Nope\n    renderer: [\n")
        let slot = CompilerSlot(LayoutCompiler(config: MappingConfig()), configHash: "in-use")
        let counts = Counts()
        let reloader = ConfigReloader(
            path: path, slot: slot, maxInputBytes: 1 << 20, metrics: counts, logger: Logger(label: "test"))
        #expect(!reloader.reload())
        #expect(slot.compiler.configHash == "in-use" && slot.compiler.generation == 0)
        #expect(counts.failures.load(ordering: .relaxed) == 1)
    }
}
