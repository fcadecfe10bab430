import Logging
import Synchronization

/// Origins the gateway refused CORS headers to (not in `--cors-origin`), each logged the first time it is seen, so
/// a web app deployed on a new host shows up in the log; at most `limit` of them, then one line saying the rest go
/// unlogged (a page can send any `Origin`).
final class RefusedOrigins: Sendable {
    let logger: Logger?
    let limit: Int
    private let seen = Mutex<Set<String>>([])

    init(logger: Logger?, limit: Int = 64) {
        self.logger = logger
        self.limit = limit
    }

    /// Notes a refused `origin`; logs it when it is new and the limit is not reached.
    func refused(_ origin: String, allowed: [String]) {
        guard let logger else { return }
        let (new, count) = seen.withLock { set -> (Bool, Int) in
            guard set.count <= limit, set.insert(origin).inserted else { return (false, set.count) }
            return (true, set.count)
        }
        guard new else { return }
        if count > limit {
            logger.warning("CORS: more origins refused; not logged any more", metadata: ["logged": "\(limit)"])
        } else {
            logger.warning(
                "CORS: origin refused (not in --cors-origin); its pages get no Access-Control-Allow-Origin",
                metadata: ["origin": .string(origin), "allowed": .string(allowed.joined(separator: ","))])
        }
    }
}
