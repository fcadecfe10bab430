public import Kafka
public import PageStore

/// What reading a worker's pages back from the latest-layout topic can fail with.
public enum PageLoadError: Error, CustomStringConvertible {
    /// The brokers: waited out when retriable (`KafkaError.isRetriable`), else the worker stops.
    case kafka(KafkaError)
    /// The page store (a full or read-only disk): the worker goes on from memory.
    case store(PageStoreError)

    public var description: String {
        switch self {
        case .kafka(let error): error.description
        case .store(let error): error.description
        }
    }
}
