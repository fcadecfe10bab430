public import Logging

/// Wraps a log handler so that no secret value reaches it: every occurrence of a secret (a value of a secret-like
/// librdkafka property, whatever the key it was logged under) in the message or in string metadata becomes
/// `[redacted]`.
public struct RedactingLogHandler: LogHandler {
    var wrapped: any LogHandler
    let secrets: [String]

    /// `secrets`: the values to hide; values shorter than 4 characters are ignored (they would hide ordinary text).
    public init(wrapping handler: any LogHandler, secrets: [String]) {
        wrapped = handler
        self.secrets = Array(Set(secrets.filter { $0.count >= 4 })).sorted { $0.count > $1.count }
    }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        guard !secrets.isEmpty else { return wrapped.log(event: event) }
        var event = event
        event.message = Logger.Message(stringLiteral: redact(event.message.description))
        event.metadata = event.metadata?.mapValues(redact)
        wrapped.log(event: event)
    }

    /// The text with every secret replaced.
    public func redact(_ text: String) -> String {
        var out = text
        for secret in secrets where out.contains(secret) {
            out = out.replacing(secret, with: "[redacted]")
        }
        return out
    }

    private func redact(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let s): .string(redact(s))
        case .stringConvertible(let c):
            secrets.contains(where: { c.description.contains($0) }) ? .string(redact(c.description)) : value
        case .array(let a): .array(a.map(redact))
        case .dictionary(let d): .dictionary(d.mapValues(redact))
        }
    }
}
