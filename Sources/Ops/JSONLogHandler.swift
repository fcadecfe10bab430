import Foundation
import LayoutJSON
public import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A swift-log handler writing one JSON object per line to a file descriptor (stderr by default):
/// `{"time":"2026-11-23T10:04:05.123Z","level":"info","logger":"layout-worker","message":"…",<metadata>…}`.
/// Metadata keys become fields (a key that collides with the four above gets a `_` prefix); nested metadata
/// becomes JSON objects and arrays. Each line is written with one `write` call, so lines from threads never mix.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let fd: Int32

    public init(label: String, fileDescriptor: Int32 = 2, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.fd = fileDescriptor
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
        if let extra = event.metadata { all.merge(extra) { $1 } }
        var line = Self.line(
            time: Date(), level: event.level, logger: label, message: event.message.description, metadata: all)
        line.append(0x0A)
        line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    static let reserved: Set<String> = ["time", "level", "logger", "message"]

    /// One log line's JSON object.
    static func line(time: Date, level: Logger.Level, logger: String, message: String, metadata: Logger.Metadata)
        -> [UInt8]
    {
        var w = JSONWriter(capacity: 256 + message.utf8.count)
        w.beginObject()
        w.key("time")
        w.string(Self.timestamp(time))
        w.key("level")
        w.string(level.rawValue)
        w.key("logger")
        w.string(logger)
        w.key("message")
        w.string(message)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            w.key(text: reserved.contains(key) ? "_" + key : key)
            append(value, to: &w)
        }
        w.endObject()
        return w.bytes
    }

    private static func append(_ value: Logger.Metadata.Value, to w: inout JSONWriter) {
        switch value {
        case .string(let s): w.string(s)
        case .stringConvertible(let c):
            switch c {
            case let n as Int: w.int(n)
            case let n as Int64: w.int(Int(n))
            case let n as UInt64 where n <= UInt64(Int.max): w.int(Int(n))
            case let n as Int32: w.int(Int(n))
            case let b as Bool: w.bool(b)
            default: w.string(c.description)
            }
        case .array(let values):
            w.beginArray()
            for v in values { append(v, to: &w) }
            w.endArray()
        case .dictionary(let d):
            w.beginObject()
            for (k, v) in d.sorted(by: { $0.key < $1.key }) {
                w.key(text: k)
                append(v, to: &w)
            }
            w.endObject()
        }
    }

    /// RFC 3339 in UTC with milliseconds: `2026-11-23T10:04:05.123Z`.
    static func timestamp(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(ms / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(ms % 1000))
    }
}

/// How log lines look: `json` (one object per line) or `text` (swift-log's stream format).
public enum LogFormat: String, Sendable, CaseIterable {
    case json, text

    /// JSON unless stderr is a terminal.
    public static var automatic: LogFormat { isatty(2) != 0 ? .text : .json }

    /// A logger with this format, label and level that never shows these secret values.
    public func logger(label: String, level: Logger.Level, secrets: [String] = []) -> Logger {
        var logger: Logger
        switch self {
        case .json:
            logger = Logger(label: label) { RedactingLogHandler(wrapping: JSONLogHandler(label: $0), secrets: secrets) }
        case .text:
            logger = Logger(label: label) {
                RedactingLogHandler(wrapping: StreamLogHandler.standardError(label: $0), secrets: secrets)
            }
        }
        logger.logLevel = level
        return logger
    }
}
