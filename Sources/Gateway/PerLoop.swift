import NIOCore
import NIOPosix

/// One value per event loop of a group, found by its loop: what each loop keeps for itself (its streams, its record
/// bodies, its counts), touched by that loop without a lock.
struct PerLoop<Value: Sendable>: Sendable {
    /// The values, in the group's order.
    let all: [Value]
    /// The loops' identities, in the same order: found by comparing them one by one (a group has as many loops as
    /// cores; comparing a few words costs less than hashing one, and a request asks twice).
    private let loops: [ObjectIdentifier]

    /// A value made by `make` for each of `loops`.
    init(_ loops: [any EventLoop], _ make: (any EventLoop) -> Value) {
        self.loops = loops.map { ObjectIdentifier($0) }
        all = loops.map(make)
    }

    /// `loop`'s value; nil for a loop of another group.
    subscript(loop: any EventLoop) -> Value? {
        let id = ObjectIdentifier(loop)
        return loops.firstIndex(of: id).map { all[$0] }
    }

    /// The value of the loop this code runs on; nil off the group's loops.
    var current: Value? { MultiThreadedEventLoopGroup.currentEventLoop.flatMap { self[$0] } }
}
