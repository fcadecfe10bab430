import CRdKafka
public import Logging

/// Client settings: typed fields for what the service uses, plus raw librdkafka properties passed through.
/// Its description and reflection show secret values as `[redacted]`, so they never reach logs or error dumps.
public struct KafkaConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `host:port[,host:port...]`.
    public var bootstrapServers: String
    public var clientID: String
    /// Any librdkafka property (`security.protocol`, `sasl.*`, `ssl.*`, tuning); applied after the typed fields.
    public var properties: [String: String]
    /// Where librdkafka's own log lines go (as swift-log messages, logger label `librdkafka`); nil leaves them to
    /// librdkafka, which prints them raw on stderr.
    public var logger: Logger?
    /// Called with each statistics JSON document (every `statistics.interval.ms`, during `poll`).
    public var statisticsHandler: (@Sendable ([UInt8]) -> Void)?
    /// Called with client-level errors (all brokers down, authentication failures, …) during `poll`; without it
    /// they are logged as warnings through `logger`.
    public var errorHandler: (@Sendable (KafkaError) -> Void)?
    /// Shared by every client made from this configuration (and its copies): lines that repeat while a broker is
    /// down go out once every 30 s, however many clients say them.
    let repeatedLines = RepeatedLogLines()

    public init(
        bootstrapServers: String, clientID: String = "layout-worker", properties: [String: String] = [:],
        logger: Logger? = nil
    ) {
        self.bootstrapServers = bootstrapServers
        self.clientID = clientID
        self.properties = properties
        self.logger = logger
    }

    public var description: String {
        "KafkaConfiguration("
            + redactedProperties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            + ")"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["properties": redactedProperties], displayStyle: .struct)
    }

    /// Whether a property holds a secret (its value never appears in logs or errors).
    /// Besides the obvious names, any key that looks like one (`sasl.passwd`), `sasl.jaas.config` (which embeds
    /// a password) and key material count as secrets.
    public static func isSecret(_ key: String) -> Bool {
        let k = key.lowercased()
        return ["passw", "pwd", "secret", "token", "jaas", "credential", "oauthbearer.config", "private"].contains {
            k.contains($0)
        }
            || k == "ssl_key" || k.hasSuffix("key.pem") || k.hasSuffix(".key")
    }

    /// Whether a property's value may appear in logs and errors: only a property librdkafka knows whose name
    /// says nothing of a secret (an allow-list: a misspelled `sasl.pasword` is hidden like `sasl.password`).
    public static func isShown(_ key: String) -> Bool {
        !isSecret(key) && Librdkafka.propertyNames.contains(key)
    }

    /// What is wrong with setting `key` to `value`, in librdkafka's words (a value that may not be shown is not
    /// repeated), or nil when librdkafka takes it.
    public static func problem(key: String, value: String) -> String? {
        guard let conf = rd_kafka_conf_new() else { return "cannot make a librdkafka configuration" }
        defer { rd_kafka_conf_destroy(conf) }
        var errstr = [CChar](repeating: 0, count: 512)
        switch rd_kafka_conf_set(conf, key, value, &errstr, errstr.count) {
        case RD_KAFKA_CONF_OK: return nil
        case RD_KAFKA_CONF_UNKNOWN: return "no such librdkafka property"
        default: return refusal(String(errorBuffer: errstr), key: key, value: value)
        }
    }

    /// librdkafka's words for a refused property, unless they repeat a value that may not be shown.
    static func refusal(_ text: String, key: String, value: String) -> String {
        isShown(key) || (!value.isEmpty && !text.contains(value))
            ? text : "invalid value (not shown: it may be a secret)"
    }

    /// The values of every property that may not be shown: logs and errors replace them wherever they appear.
    public var secretValues: [String] {
        properties.compactMap { Self.isShown($0.key) ? nil : $0.value }
    }

    /// The properties with every value that may not be shown replaced by `[redacted]`.
    public var redactedProperties: [String: String] {
        var out: [String: String] = ["bootstrap.servers": bootstrapServers, "client.id": clientID]
        for (k, v) in properties { out[k] = Self.isShown(k) ? v : "[redacted]" }
        return out
    }

    /// What every client is made with unless `defaults` or the properties say otherwise.
    /// `enable.metrics.push=false`: KIP-714 client telemetry is off (the service exports librdkafka's statistics on
    /// its own `/metrics`); with it on, a client's destroy against a broker without telemetry (the test broker)
    /// waits 1 s for a final push in about one case in ten, which delays a worker's exit after it left its group.
    public static let clientDefaults = ["enable.metrics.push": "false"]

    /// Every property a client is made with: `clientDefaults`, `defaults`, the configuration's properties, then
    /// `required`.
    public func effectiveProperties(defaults: [String: String] = [:], required: [String: String] = [:]) -> [String:
        String]
    {
        var all = Self.clientDefaults.merging(defaults) { $1 }
        all["bootstrap.servers"] = bootstrapServers
        all["client.id"] = clientID
        for (k, v) in properties { all[k] = v }
        for (k, v) in required { all[k] = v }
        return all
    }

    /// A new librdkafka configuration with every setting applied; the caller owns it. `defaults` give way to
    /// `properties`; `required` (what the client's correctness depends on, e.g. manual commits) override them.
    func makeConf(defaults: [String: String] = [:], required: [String: String] = [:], callbacks: ClientCallbacks)
        throws(KafkaError) -> OpaquePointer
    {
        guard let conf = rd_kafka_conf_new() else { throw .configuration("rd_kafka_conf_new failed") }
        for (key, value) in effectiveProperties(defaults: defaults, required: required).sorted(by: { $0.key < $1.key })
        {
            var errstr = [CChar](repeating: 0, count: 512)
            let result = rd_kafka_conf_set(conf, key, value, &errstr, errstr.count)
            if result != RD_KAFKA_CONF_OK {
                rd_kafka_conf_destroy(conf)
                let why = Self.refusal(String(errorBuffer: errstr), key: key, value: value)
                throw .configuration("\(key): \(why)")
            }
        }
        callbacks.install(on: conf)
        return conf
    }
}
