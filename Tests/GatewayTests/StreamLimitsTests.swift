import Testing

@testable import Gateway

/// The gateway's limits from descriptors and memory: which bound wins, the room kept for 503s and probes.
@Suite struct StreamLimitsTests {
    static let mib = 1024 * 1024

    @Test func descriptorsBoundTheStreamsWithRoomFor503sAndProbes() {
        let limits = StreamLimits.derive(
            descriptors: (soft: 20_000, hard: 20_000), inUse: 40, memory: nil, heldBytes: 0, configured: nil)
        // 20,000 - 40 open - 96 reserved - 32 for ops.
        #expect(limits.connections == 19_832)
        #expect(limits.streams == 19_832 - 19_832 / 20)
        #expect(limits.opsConnections == StreamLimits.opsShare)
        #expect(limits.boundBy == "descriptors")
        #expect(limits.description.contains("streams up to 18841 (bound by descriptors)"))
    }

    @Test func aSmallDescriptorLimitStillAnswers503s() {
        // systemd's soft default, nearly used up: still a few connections, and streams below them.
        let limits = StreamLimits.derive(
            descriptors: (soft: 256, hard: 256), inUse: 120, memory: nil, heldBytes: 0, configured: nil)
        #expect(limits.connections == 8)
        #expect(limits.streams == 1)
        let tiny = StreamLimits.derive(
            descriptors: (soft: 1_024, hard: 4_096), inUse: 16, memory: nil, heldBytes: 0, configured: nil)
        #expect(tiny.connections == 880 && tiny.streams == 880 - 44)
    }

    @Test func memoryBoundsTheStreamsWhenItIsTheTighterLimit() {
        // A 1 GiB pod holding 256 MiB of pages: (1024 - 256 - 128) MiB at 16 KiB a stream = 40,960.
        let limits = StreamLimits.derive(
            descriptors: (soft: 1_048_576, hard: 1_048_576), inUse: 50, memory: 1_024 * Self.mib,
            heldBytes: 256 * Self.mib, configured: nil)
        #expect(limits.streams == 40_960)
        #expect(limits.boundBy == "memory")
        #expect(limits.connections == 1_048_576 - 50 - 96 - 32)
        // With more memory, descriptors win again.
        let roomy = StreamLimits.derive(
            descriptors: (soft: 20_000, hard: 20_000), inUse: 0, memory: 24 * 1024 * Self.mib,
            heldBytes: 256 * Self.mib, configured: nil)
        #expect(roomy.boundBy == "descriptors")
        // Memory already spent on pages: at least one stream, never zero or negative.
        let starved = StreamLimits.derive(
            descriptors: (soft: 20_000, hard: 20_000), inUse: 0, memory: 100 * Self.mib, heldBytes: 256 * Self.mib,
            configured: nil)
        #expect(starved.streams == 1 && starved.boundBy == "memory")
    }

    @Test func maxStreamsOnlyLowersTheCap() {
        let lower = StreamLimits.derive(
            descriptors: (soft: 20_000, hard: 20_000), inUse: 40, memory: nil, heldBytes: 0, configured: 5_000)
        #expect(lower.streams == 5_000 && lower.boundBy == "--max-streams")
        let higher = StreamLimits.derive(
            descriptors: (soft: 20_000, hard: 20_000), inUse: 40, memory: nil, heldBytes: 0, configured: 50_000)
        #expect(higher.streams == 18_841 && higher.boundBy == "descriptors")
    }

    @Test func raisingTheDescriptorLimitReachesTheHardLimit() {
        let raised = StreamLimits.raiseDescriptorLimit()
        #expect(raised.soft == raised.hard && raised.soft > 0)
    }
}

/// The gateway's probes, as its ops port answers them (`OpsPaths`).
@Suite struct GatewayProbeTests {
    @Test func readyOnceTheLatestLayoutsAreReadAndWarnedWithoutTheStore() {
        let status = GatewayStatus()
        #expect(status.liveness() == .passing("ok"))
        status.setProblem("topic latest does not exist (yet)")
        #expect(status.readiness == .failing("reading the latest layouts (topic latest does not exist (yet))"))
        status.setCaughtUp(seconds: 0.1, messages: 3)
        #expect(status.readiness == .passing("ready"))
        status.setPageStoreProblem("cannot open the page store")
        #expect(status.readiness == .passing("ready; warning: working from memory: cannot open the page store"))
    }
}
