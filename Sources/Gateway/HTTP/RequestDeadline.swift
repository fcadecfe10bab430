import NIOCore

/// A connection's request timeout: armed while it waits for a whole request, disarmed while one is answered or
/// once it streams; when it passes, the connection is closed. Arming reads the clock and nothing more: one timer
/// per connection at a time, which, when it fires early (the deadline moved on since), is set again for the
/// deadline then. Lives on the connection's event loop.
final class RequestDeadline {
    private let timeout: TimeAmount
    private let channel: any Channel
    /// When the connection is closed, unless disarmed or moved on first (nil: disarmed).
    private var at: NIODeadline?
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount, channel: any Channel) {
        self.timeout = timeout
        self.channel = channel
    }

    /// From now, a whole request is due within the timeout.
    func arm() {
        let due = channel.eventLoop.now + timeout
        at = due
        if timer == nil { schedule(due) }
    }

    /// No request is due (one is being answered, or the connection streams).
    func disarm() { at = nil }

    /// The connection is gone: the timer with it.
    func stop() {
        at = nil
        timer?.cancel()
        timer = nil
    }

    private func schedule(_ due: NIODeadline) {
        let bound = NIOLoopBound(self, eventLoop: channel.eventLoop)
        timer = channel.eventLoop.scheduleTask(deadline: due) { bound.value.fired() }
    }

    private func fired() {
        timer = nil
        guard let at else { return }
        if at <= channel.eventLoop.now {
            self.at = nil
            channel.close(promise: nil)
        } else {
            schedule(at)
        }
    }
}
