import Delivery
import Dispatch
import Foundation
import Kafka
import Logging
import Ops

/// How a session tells the worker about rebalances, and how it describes them.
extension ConsumerSession {
    /// What the rest of the worker does when partitions come and go (called inside `fetch`, with `assigned`
    /// already saying what the group gave this worker).
    struct Rebalancing {
        /// Partitions assigned: their pages are brought up to date before any of their messages is processed.
        var assigned: ([Partition]) -> Void
        /// Partitions about to be revoked: their outputs are finished (bounded) before the session commits.
        var revoking: ([Partition]) -> Void
        /// Partitions revoked and committed: what is kept for them is written or forgotten.
        var revoked: ([Partition]) -> Void
    }

    /// What of `event` a leaving session does not handle (its partitions, listed), or nil: an assignment is never
    /// taken; a revocation is handled for the partitions the session owns (finished and committed as usual).
    static func whileLeaving(_ event: RebalanceEvent, owned: Set<Partition>) -> String? {
        switch event {
        case .assigned(let partitions): return list(partitions)
        case .revoked(let partitions):
            let foreign = partitions.filter { !owned.contains($0) }
            return foreign.count == partitions.count ? list(partitions) : nil
        }
    }

    static func list(_ partitions: [Partition]) -> String {
        partitions.map(\.description).joined(separator: ",")
    }
}
