import NIOCore
import NIOPosix

/// One value per event loop of a group, found by its loop: what each loop keeps for itself (its streams, its record
/// bodies, its counts), touched by that loop without a lock.
struct PerLoop<Value: Sendable>: Sendable {
    /// The values, in the group's order.
    let all: [Value]
    private let byLoop: [ObjectIdentifier: Value]

    /// A value made by `make` for each of `loops`.
    init(_ loops: [any EventLoop], _ make: (any EventLoop) -> Value) {
        let pairs = loops.map { (ObjectIdentifier($0), make($0)) }
        all = pairs.map(\.1)
        byLoop = Dictionary(uniqueKeysWithValues: pairs)
    }

    /// `loop`'s value; nil for a loop of another group.
    subscript(loop: any EventLoop) -> Value? { byLoop[ObjectIdentifier(loop)] }

    /// The value of the loop this code runs on; nil off the group's loops.
    var current: Value? { MultiThreadedEventLoopGroup.currentEventLoop.flatMap { self[$0] } }
}
