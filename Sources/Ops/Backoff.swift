import Foundation

/// The wait before trying again after a retriable error: `first`, doubling each time it is taken, up to `most`.
/// Taken on a loop's own thread, it keeps the loop's liveness beating and ends early when the loop is asked to stop.
public struct Backoff: Sendable {
    /// What the next `pause` waits.
    public private(set) var next: Duration
    public let most: Duration

    public init(first: Duration, most: Duration) {
        next = first
        self.most = most
    }

    /// Waits `next` in 50 ms slices, calling `beat` at each (less when `stop` says so), then doubles it.
    public mutating func pause(beat: () -> Void, stop: () -> Bool) {
        let until = ContinuousClock.now + next
        while !stop() && ContinuousClock.now < until {
            beat()
            Thread.sleep(forTimeInterval: 0.05)
        }
        next = min(next * 2, most)
    }
}
