import NIOCore
import Synchronization

/// Counts a listener's open connections and stops accepting at `limit` (the server channel stops reading: the
/// kernel's backlog holds new connections, no descriptor is spent, nothing spins), accepting again below it.
final class ConnectionGate: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)
    private let server = Mutex<(any Channel)?>(nil)

    init(limit: Int) { self.limit = limit }

    var count: Int { open.load(ordering: .relaxed) }

    func attach(_ channel: any Channel) { server.withLock { $0 = channel } }

    /// A connection was accepted: counts it until it closes. One accepted past the limit (the listener accepts a
    /// few at a time before the pause takes effect) is served all the same: its descriptor is spent already, and
    /// what it asks for gets an answer (a stream past the stream limit a 503), never a reset.
    func admit(_ channel: any Channel) {
        let n = open.wrappingAdd(1, ordering: .relaxed).newValue
        channel.closeFuture.whenComplete { [self] _ in
            if open.wrappingSubtract(1, ordering: .relaxed).newValue == limit - 1 { reconcile() }
        }
        if n == limit { reconcile() }
    }

    /// Accepts or not as the count is when this runs on the listener's loop: whatever order crossings come in,
    /// the last one leaves it right.
    private func reconcile() {
        guard let channel = server.withLock({ $0 }) else { return }
        channel.eventLoop.execute { [self] in
            channel.setOption(ChannelOptions.autoRead, value: open.load(ordering: .relaxed) < limit).whenFailure {
                _ in
            }
        }
    }
}
