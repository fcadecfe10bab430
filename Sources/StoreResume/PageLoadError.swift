public import Kafka
public import PageStore

/// What resuming a page store and reading its pages back from their topic can fail with (the worker's `PageLoader`
/// and the gateway's feed).
public enum PageLoadError: Error, CustomStringConvertible {
    /// The brokers: waited out when retriable (`KafkaError.isRetriable`), else the process stops.
    case kafka(KafkaError)
    /// The page store (a full or read-only disk): the process goes on from memory.
    case store(PageStoreError)

    public var description: String {
        switch self {
        case .kafka(let error): error.description
        case .store(let error): error.description
        }
    }
}

extension PageLoadError {
    /// A page store call: its failure is the store's (`PageLoadError.store`).
    public static func storeCall<T>(_ body: () throws(PageStoreError) -> T) throws(PageLoadError) -> T {
        do {
            return try body()
        } catch {
            throw .store(error)
        }
    }

    /// A call to the brokers: its failure is the cluster's (`PageLoadError.kafka`).
    public static func clusterCall<T>(_ body: () throws(KafkaError) -> T) throws(PageLoadError) -> T {
        do {
            return try body()
        } catch {
            throw .kafka(error)
        }
    }
}
