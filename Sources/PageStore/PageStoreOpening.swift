public import Logging

/// How a process opens its page store, the same for every process that keeps one (serve's worker and the gateway): the identity
/// a store is opened with, opening it and saying how it opened, and what is said when it cannot be used or stops
/// taking writes (the process then goes on from memory, and its status says so).
public enum PageStoreOpening {
    /// What a store is made for: the cluster (its id) and the topics its pages and checkpoints come from. A store
    /// made for another identity is rebuilt when opened.
    public static func identity(cluster: String, latestTopic: String, changesTopic: String? = nil) -> String {
        "cluster \(cluster), latest-layout topic \(latestTopic)"
            + (changesTopic.map { ", change-set topic \($0)" } ?? "")
    }

    /// The store in `directory`, with a log line saying whether it was created, reopened or rebuilt (and why); or
    /// why it cannot be used.
    public static func open(directory: String, identity: String, logger: Logger) -> Result<PageStore, PageStoreError> {
        do {
            let (store, opening) = try PageStore.open(directory: directory, identity: identity)
            switch opening {
            case .created: logger.info("page store created", metadata: ["page-store": .string(directory)])
            case .reopened: logger.info("page store reopened", metadata: ["page-store": .string(directory)])
            case .rebuilt(let reason):
                logger.warning(
                    "page store rebuilt from the topics",
                    metadata: ["page-store": .string(directory), "reason": .string(reason)])
            }
            return .success(store)
        } catch {
            return .failure(error)
        }
    }

    /// Logs that the process goes on without its store, for `reason`; the status line to show, which says what
    /// memory alone costs (pages past `memoryLimit`, the setting, are forgotten).
    public static func off(_ reason: String, memoryLimit: String, logger: Logger) -> String {
        logger.error("page store off; working from memory", metadata: ["reason": .string(reason)])
        return reason + "; pages past \(memoryLimit) are forgotten"
    }

    /// Logs the first write that failed (a full or read-only disk); the status line to show. From then on the pages
    /// changed stay in memory (never let go, so no page goes back in time) until a restart.
    public static func writesFail(_ failure: String, logger: Logger) -> String {
        logger.error(
            "page store writes fail; pages changed from now on stay in memory until a restart",
            metadata: ["error": .string(failure)])
        return "page store writes fail (\(failure)); pages changed from now on stay in memory until a restart"
    }
}
