public import Logging
import Synchronization

/// The messages logged, for a test to read.
public final class LoggedLines: Sendable {
    private let lines = Mutex<[String]>([])
    public init() {}
    public func append(_ line: String) { lines.withLock { $0.append(line) } }
    public var all: [String] { lines.withLock { $0 } }
}

/// Keeps each message logged (with its metadata) in `lines`.
public struct RecordingLogHandler: LogHandler {
    let lines: LoggedLines
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info

    public init(lines: LoggedLines) { self.lines = lines }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let extra = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lines.append(([event.message.description] + extra).joined(separator: " "))
    }
}
