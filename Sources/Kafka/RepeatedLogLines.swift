import Synchronization

/// librdkafka says a broker cannot be reached each time it tries again (twice a second at first, and per broker);
/// at most one such line per broker and kind is let through every `interval`, carrying how many were held back
/// since the last one. Every other line passes.
final class RepeatedLogLines: Sendable {
    /// The facilities whose lines repeat while a broker is down.
    static let repeating: Set<String> = ["FAIL", "ERROR"]

    let interval: Duration
    private let last = Mutex<[String: (at: ContinuousClock.Instant, held: Int)]>([:])

    init(interval: Duration = .seconds(30)) { self.interval = interval }

    /// Whether a line of `facility` saying `text` goes out now, and how many like it were held back before it; nil:
    /// hold it back.
    func admit(facility: String, text: String, now: ContinuousClock.Instant = .now) -> Int? {
        guard Self.repeating.contains(facility) else { return 0 }
        // librdkafka starts these lines with the broker ("127.0.0.1:9092/1: Connect to …").
        let key = facility + " " + (text.split(separator: " ", maxSplits: 1).first.map(String.init) ?? "")
        return last.withLock { seen in
            if let previous = seen[key], now - previous.at < interval {
                seen[key] = (previous.at, previous.held + 1)
                return nil
            }
            let held = seen[key]?.held ?? 0
            seen[key] = (now, 0)
            return held
        }
    }
}
