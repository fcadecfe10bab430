/// A failure of the page store's engine: what was being done, where, and RocksDB's own words.
public struct PageStoreError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var message: String

    public init(path: String, operation: String, message: String) {
        self.path = path
        self.operation = operation
        self.message = message
    }

    public var description: String { "page store \(path): \(operation) failed: \(message)" }
}
