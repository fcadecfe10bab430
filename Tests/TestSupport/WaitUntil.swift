import Foundation

/// The one wait of the tests: checks `done` every `every` seconds until it holds or `seconds` have passed (10 by
/// default: a condition that takes longer names its own bound); returns whether it held. Say what was seen in the
/// expectation that checks the result, e.g. `#expect(waitUntil { … }, "last answer: \(last)")`.
@discardableResult
public func waitUntil(seconds: Double = 10, every: Double = 0.2, _ done: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if try done() { return true }
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: every)
    }
}

/// `waitUntil` for an async condition, sleeping between checks without holding a thread.
public func waitUntil(seconds: Double = 10, every: Double = 0.1, _ done: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if await done() { return true }
        if Date() >= deadline { return false }
        try? await Task.sleep(for: .seconds(every))
    }
}
