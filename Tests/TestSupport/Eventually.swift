import Foundation

/// Whether `condition` holds within `seconds` (checked every 100 ms). Generous: in the full suite, synchronous tests
/// that block on brokers and child processes hold both of this machine's cooperative threads for most of the run
/// (the follow test took 165 s there, 3 s alone), and the hub (an actor) waits for them. A passing test returns as
/// soon as the condition holds, so the bound only matters when something is wrong.
public func eventually(seconds: Double = 600, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return false
}
