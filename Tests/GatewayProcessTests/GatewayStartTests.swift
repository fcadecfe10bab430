import Foundation
import TestSupport
import Testing

@testable import ProcessTestSupport

/// A gateway that cannot listen says so and exits, before it reads a topic.
@Suite struct GatewayStartTests {
    @Test func aTakenAPIPortIsNamedAndTheGatewayExits() async throws {
        try await offThePool {
            let taken = try TestOrigin()  // something listening on a loopback port
            let process = layoutWorkerProcess([
                "gateway", "--brokers", "127.0.0.1:1", "--changes-topic", "c", "--port", String(taken.port), "--http",
                "off", "--page-store", "off",
            ])
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let exited = waitUntil(seconds: 10, every: 0.05) { !process.isRunning }
            if !exited { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(exited, "still running after 10 s; said: \(said)")
            #expect(process.terminationStatus == 64, "\(said)")
            #expect(
                said.contains("port 127.0.0.1:\(taken.port): cannot listen there (Address already in use)"), "\(said)")
        }
    }
}
