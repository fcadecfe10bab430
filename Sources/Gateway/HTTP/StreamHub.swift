import Dispatch
import Foundation
public import NIOCore

/// The streams of every page, each held by the event loop its connection runs on (`LoopStreams`): an event for a
/// page is handed to every loop, which writes its shared bytes to its own streams of that page. No lock is held
/// while writing and the loops write in parallel; a stream costs its connection and a few words here.
public final class StreamHub: StreamSink {
    private let byLoop: PerLoop<LoopStreams>
    var loops: [LoopStreams] { byLoop.all }

    public init(group: any EventLoopGroup, metrics: GatewayMetrics) {
        byLoop = PerLoop(Array(group.makeIterator())) { LoopStreams(loop: $0, metrics: metrics) }
    }

    /// The streams held by `loop` (one of the group's).
    func streams(on loop: any EventLoop) -> LoopStreams {
        guard let streams = byLoop[loop] else {
            preconditionFailure("an event loop of another group")
        }
        return streams
    }

    public func publish(_ key: String, _ event: EventBytes) {
        for streams in loops { streams.loop.execute { streams.deliver(key, event) } }
    }

    /// A heartbeat on every stream every `seconds`, one task per loop.
    func startHeartbeats(every seconds: Int) -> [RepeatedTask] {
        loops.map { streams in
            streams.loop.scheduleRepeatedTask(
                initialDelay: .seconds(Int64(seconds)), delay: .seconds(Int64(seconds))
            ) { _ in streams.heartbeat() }
        }
    }

    /// Ends every stream (the last chunk, then close): the gateway is stopping.
    func endAll() async {
        for streams in loops { try? await streams.loop.submit { streams.endAll() }.get() }
    }
}

/// One event loop's streams, by page key. Touched only on its loop.
final class LoopStreams: @unchecked Sendable {
    let loop: any EventLoop
    let metrics: GatewayMetrics
    private var byKey: [String: [GatewayConnection]] = [:]

    init(loop: any EventLoop, metrics: GatewayMetrics) {
        self.loop = loop
        self.metrics = metrics
    }

    func add(_ stream: GatewayConnection) {
        loop.preconditionInEventLoop()
        stream.slot = byKey[stream.key]?.count ?? 0
        byKey[stream.key, default: []].append(stream)
    }

    /// Takes `stream` out in place: the page's last stream moves into its slot (a copy of the list here would make
    /// N streams leaving at once cost N² references).
    func remove(_ stream: GatewayConnection) {
        loop.preconditionInEventLoop()
        let slot = stream.slot
        guard slot >= 0, slot < byKey[stream.key]?.count ?? 0, byKey[stream.key]?[slot] === stream else { return }
        let emptied = byKey[stream.key]?.removeSwapping(at: slot) ?? true
        stream.slot = -1
        if emptied { byKey[stream.key] = nil }
    }

    /// Writes `event` to this loop's streams of `key` that take it; records how long the whole took and, per stream,
    /// how old the event's input was when the stream's write was done.
    func deliver(_ key: String, _ event: EventBytes) {
        guard let list = byKey[key] else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        let sourceNs = event.sourceTimeMs.map { UInt64(max(0, $0)) * 1_000_000 }
        let wallAtStart = UInt64(Date().timeIntervalSince1970 * 1e9)
        var written = 0
        list.withUnsafeBufferPointer { streams in
            for stream in streams where stream.take(event) {
                written += 1
                if let sourceNs {
                    let now = wallAtStart &+ (DispatchTime.now().uptimeNanoseconds &- start)
                    metrics.streamFreshness.recordNanoseconds(Int64(bitPattern: now &- sourceNs))
                }
            }
        }
        guard written > 0 else { return }
        metrics.eventsWritten.increment(by: Int64(written))
        metrics.fanOut.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds &- start))
    }

    func heartbeat() {
        for list in byKey.values { for stream in list { stream.heartbeat() } }
    }

    func endAll() {
        let all = byKey.values.flatMap { $0 }
        for stream in all { stream.end() }
    }
}

extension [GatewayConnection] {
    /// Removes the stream at `slot`, the last one taking its place (and its slot number); whether none is left.
    fileprivate mutating func removeSwapping(at slot: Int) -> Bool {
        let last = removeLast()
        if slot < count {
            self[slot] = last
            last.slot = slot
        }
        return isEmpty
    }
}
